// Live boards: every game on the MQTT broker at once, as small boards. On its own page
// (live.html, `nestref live`) it starts at once; on the spectator page (index.html) it
// starts when the server's hello says it has live boards, as a panel of its own.
//
// The server sends how to draw each game (its board's cells, its pieces) once, then
// every board each time one changes, each read strictly by the server first. Even so
// nothing in a board is trusted here: every text goes in as text (textContent,
// setAttribute), never as markup, and a board whose game is not known is not drawn.

const SVG_NS = "http://www.w3.org/2000/svg";
const R = 40; // a cell's radius, as the main page's (app.js)
const SQRT3 = Math.sqrt(3);
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10000;

// What the tests and curious users can read: the last messages.
const live = { connected: false, games: {}, boards: [] };
window.nestrefLive = live;

let socket = null;
let retries = 0;
let container = null;

function element(name, attributes = {}, namespace = null) {
  const made = namespace ? document.createElementNS(namespace, name) : document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  return made;
}

function svg(name, attributes = {}) {
  return element(name, attributes, SVG_NS);
}

function hexPoints(x, y, radius) {
  const corners = [];
  for (let k = 0; k < 6; k++) {
    const angle = (Math.PI / 180) * (30 + 60 * k);
    corners.push(`${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return corners.join(" ");
}

// Where each cell is drawn, and its outline: hexagons by their axial q, r (as app.js
// places them), squares by their x, y; red at the bottom.
function layout(board) {
  const square = board.shape === "square";
  const cells = (board.cells ?? []).map((cell) => {
    const x = square ? 2 * R * cell.x : SQRT3 * R * (cell.q + cell.r / 2);
    const y = square ? -2 * R * cell.y : -1.5 * R * cell.r;
    return { name: cell.name, home: cell.home, x, y };
  });
  return { square, cells };
}

function outline(cell, square) {
  if (square) return svg("rect", { class: "hex", x: cell.x - R, y: cell.y - R, width: 2 * R, height: 2 * R });
  return svg("polygon", { class: "hex", points: hexPoints(cell.x, cell.y, R * 0.97) });
}

function glyph(info, letter) {
  const group = svg("g", { class: `glyph ${info.side} shape-${info.shape}` });
  let body;
  if (info.shape === "diamond") {
    const half = 0.45 * R;
    body = svg("rect", { x: -half, y: -half, width: 2 * half, height: 2 * half, transform: "rotate(45)" });
  } else if (info.shape === "egg") {
    body = svg("ellipse", { rx: 0.52 * R, ry: 0.62 * R });
  } else {
    body = svg("circle", { r: 0.6 * R });
  }
  body.classList.add("body");
  const text = svg("text", { class: "letter", dy: "0.35em" });
  text.textContent = letter;
  group.append(body, text);
  return group;
}

function drawBoard(game, board) {
  const { square, cells } = layout(game.board);
  const picture = svg("svg", { class: "live-nest", role: "img" });
  const xs = cells.map((cell) => cell.x);
  const ys = cells.map((cell) => cell.y);
  const left = Math.min(...xs) - R * 1.1;
  const top = Math.min(...ys) - R * 1.1;
  const width = Math.max(...xs) - left + R * 1.1;
  const height = Math.max(...ys) - top + R * 1.1;
  picture.setAttribute("viewBox", `${left.toFixed(1)} ${top.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`);
  const pieces = board.pieces ?? {};
  let count = 0;
  for (const cell of cells) {
    const group = svg("g", { class: "cell", "data-cell": cell.name });
    if (cell.home) group.classList.add(`home-${cell.home}`);
    group.append(outline(cell, square));
    const letter = Object.hasOwn(pieces, cell.name) ? pieces[cell.name] : null;
    const info = letter !== null && Object.hasOwn(game.pieces, letter) ? game.pieces[letter] : null;
    if (info) {
      const piece = glyph(info, letter);
      piece.setAttribute("transform", `translate(${cell.x.toFixed(1)} ${cell.y.toFixed(1)})`);
      piece.setAttribute("data-piece", letter);
      group.append(piece);
      count += 1;
    }
    picture.append(group);
  }
  picture.setAttribute("aria-label", `${game.title}: ${count} pieces on the board`);
  return picture;
}

function facts(board) {
  const words = [];
  if (board.result) words.push(board.result === "draw" ? "a draw" : `${board.result} won`);
  else if (board.to_move) words.push(`${board.to_move} to move`);
  if (board.last_move) words.push(`move ${board.moves}: ${board.last_move}`);
  words.push(`set ${board.score[0]}–${board.score[1]}`);
  if (board.clock) words.push(`red ${board.clock[0]} · blue ${board.clock[1]}`);
  return words;
}

function drawCard(board) {
  const game = Object.hasOwn(live.games, board.game) ? live.games[board.game] : null;
  if (!game) return null;
  const card = element("article", { class: "live-board", "data-board": board.board });
  card.classList.toggle("offline", !board.online);
  const head = element("h3", { class: "live-name" });
  head.textContent = board.name;
  if (!board.online) {
    const badge = element("span", { class: "live-offline" });
    badge.textContent = "offline";
    head.append(" ", badge);
  }
  const game_line = element("p", { class: "live-game muted" });
  game_line.textContent = `${game.title}, game ${board.number}`;
  const line = element("p", { class: "live-facts" });
  const [first, ...rest] = facts(board);
  const turn = element("span", { class: "live-turn" });
  turn.textContent = first;
  line.append(turn);
  for (const word of rest) {
    const part = element("span", { class: word.startsWith("move ") ? "live-last-move" : "live-fact" });
    part.textContent = word;
    line.append(" · ", part);
  }
  card.append(head, drawBoard(game, board), game_line, line);
  return card;
}

function render() {
  if (!container) return;
  const cards = live.boards.map(drawCard).filter((card) => card !== null);
  const note = element("p", { class: "live-none muted" });
  note.textContent = live.connected ? "No game is published on the broker yet." : "Connecting…";
  container.replaceChildren(...(cards.length ? cards : [note]));
}

const handlers = {
  live_hello(message) {
    live.games = message.games && typeof message.games === "object" ? message.games : {};
    render();
  },
  live_boards(message) {
    live.boards = Array.isArray(message.boards) ? message.boards : [];
    render();
  },
};

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const opened = new WebSocket(`${scheme}//${location.host}/live/ws`);
  socket = opened;
  opened.addEventListener("open", () => {
    live.connected = true;
    retries = 0;
    render();
  });
  opened.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message === null || typeof message !== "object") return;
    const handle = Object.hasOwn(handlers, message.type) ? handlers[message.type] : null;
    if (handle) handle(message);
  });
  opened.addEventListener("close", () => {
    if (socket !== opened) return;
    live.connected = false;
    render();
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** retries);
    retries += 1;
    setTimeout(connect, delay);
  });
}

function start() {
  container = document.getElementById("live-boards");
  if (!container) return;
  if (document.body.dataset.page === "live") {
    connect();
    return;
  }
  // The spectator page: a panel, once its server says there are live boards.
  document.addEventListener("nestref:hello", (event) => {
    if (!event.detail?.live_boards || socket) return;
    document.getElementById("live-panel").hidden = false;
    connect();
  });
}

start();
