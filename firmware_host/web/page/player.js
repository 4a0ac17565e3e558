// A player's own screen of a game that hides pieces (the battle game): behind its side's
// own PIN it shows that side's ranks (never the other side's, but for those a strike
// showed), lets the player arrange and give a set-up, or place the army one piece at a
// time on the nest as this screen asks. It never moves a piece: the nest does, and the
// server says what the referee made of it (docs/simulator.md, "The players' own screens").

import { squareGlyph, squareLayout } from "./squares.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const R = 40; // as the shared page's cells
const RETRY_MS = 1000;
const STATUS_MS = 5000;

const shared = { connected: false, hello: null, private: null, game: null, draft: null, lastError: null };
window.nestrefPlayer = shared;

const ui = {
  socket: null,
  nextId: 1,
  layout: null,
  cells: new Map(), // name -> {name, home, x, y (drawn), element}
  grid: new Map(), // name -> [x, y] on the board (the server's geometry)
  chosen: null, // the square chosen first of two to swap
  given: null, // the set-up the server last said was given, as JSON
  statusTimer: null,
};
const $ = (id) => document.getElementById(id);
const wantedSide = new URLSearchParams(location.search).get("side");

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/player`);
  ui.socket = socket;
  socket.addEventListener("open", () => setConnection("connected", true));
  socket.addEventListener("message", (event) => receive(event.data));
  socket.addEventListener("close", () => {
    if (ui.socket !== socket) return;
    ui.socket = null;
    setConnection("disconnected: trying again", false);
    setTimeout(connect, RETRY_MS);
  });
}

function send(type, fields = {}) {
  if (!ui.socket || ui.socket.readyState !== WebSocket.OPEN) return null;
  const id = ui.nextId++;
  ui.socket.send(JSON.stringify({ type, id, ...fields }));
  return id;
}

function receive(data) {
  const message = JSON.parse(data);
  const handle = handlers[message.type];
  if (handle) handle(message);
  document.dispatchEvent(new CustomEvent(`nestref:${message.type}`, { detail: message }));
}

const tokenKey = (side) => `nestref.player.${side}`;

const handlers = {
  hello(message) {
    shared.hello = message;
    if (!message.open) {
      $("side-title").textContent = "no private screens";
      showStatus(`${message.game?.title ?? "This game"} hides nothing: the shared page shows it all.`, "info");
      return;
    }
    buildField(message.game?.board, message.geometry);
    const side = message.side;
    document.body.dataset.side = side ?? "";
    $("side-title").textContent = side ? `${side}'s own screen` : "your own screen";
    if (side) {
      $("side-form").hidden = true;
      return;
    }
    const remembered = ["red", "blue"].find((each) => (!wantedSide || each === wantedSide) && sessionStorage.getItem(tokenKey(each)));
    if (remembered) {
      send("resume", { token: sessionStorage.getItem(tokenKey(remembered)) });
      return;
    }
    if (wantedSide) $("side-choice").value = wantedSide;
    $("side-form").hidden = false;
    $("side-pin").focus();
  },

  session(message) {
    sessionStorage.setItem(tokenKey(message.side), message.token);
    showStatus(`You are ${message.side}. Keep this screen to yourself.`, "info");
  },

  private(message) {
    shared.private = message;
    renderPrivate(message);
  },

  game(message) {
    shared.game = message;
    renderTurn();
  },

  signal(message) {
    const item = document.createElement("li");
    item.textContent = message.text;
    item.dataset.kind = message.kind;
    $("signals").append(item);
    while ($("signals").children.length > 300) $("signals").firstElementChild.remove();
  },

  ack() {},

  error(message) {
    shared.lastError = message;
    showStatus(message.message, "error");
    if (/session has ended/.test(message.message)) {
      for (const side of ["red", "blue"]) sessionStorage.removeItem(tokenKey(side));
      $("side-form").hidden = false;
    }
  },
};

// -- The field ----------------------------------------------------------------------------

function svgElement(name, attributes = {}) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function buildField(board, geometry) {
  const svg = $("field");
  svg.replaceChildren();
  ui.cells.clear();
  const layout = squareLayout(board, geometry, R);
  ui.layout = layout;
  ui.grid = new Map(Object.entries(geometry?.cells ?? {}));
  if (!layout) return;
  const cellLayer = svgElement("g");
  cellLayer.append(...layout.lakes());
  const pieceLayer = svgElement("g", { id: "piece-layer" });
  for (const cell of board.cells) {
    const [x, y] = layout.place(cell.name);
    const group = svgElement("g", { class: "cell", "data-cell": cell.name, tabindex: "0", role: "button" });
    if (cell.home) group.classList.add(layout.homeClass(cell.home));
    const label = svgElement("text", { class: "cell-label", x, y, dy: "0.35em" });
    label.textContent = cell.name;
    group.append(layout.outline(x, y), label);
    group.addEventListener("click", () => choose(cell.name));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") choose(cell.name);
    });
    cellLayer.append(group);
    ui.cells.set(cell.name, { ...cell, x, y, element: group });
  }
  const xs = [...ui.cells.values()].map((cell) => cell.x);
  const ys = [...ui.cells.values()].map((cell) => cell.y);
  const margin = layout.side;
  const left = Math.min(...xs) - margin;
  const top = Math.min(...ys) - margin;
  svg.setAttribute(
    "viewBox",
    `${left} ${top} ${Math.max(...xs) - left + margin} ${Math.max(...ys) - top + margin}`,
  );
  svg.append(cellLayer, pieceLayer);
}

function pieceGlyph(letter) {
  const info = shared.hello?.game?.pieces?.[letter] ?? { side: "unknown", name: "unknown", shape: "block" };
  const group = svgElement("g", { class: `glyph piece ${info.side} ${info.name} shape-${info.shape}` });
  const body = squareGlyph(info.shape, R) ?? svgElement("circle", { r: 0.55 * R });
  body.classList.add("body");
  const text = svgElement("text", { class: "letter", dy: "0.35em" });
  text.textContent = letter;
  const title = svgElement("title");
  title.textContent = `${info.side} ${info.name}`;
  group.append(title, body, text);
  return group;
}

function renderPieces(letters) {
  const layer = $("piece-layer");
  if (!layer) return;
  layer.replaceChildren();
  for (const cell of ui.cells.values()) {
    const letter = letters[cell.name];
    cell.element.classList.toggle("occupied", Boolean(letter));
    cell.element.classList.toggle("chosen", ui.chosen === cell.name);
    if (!letter) continue;
    const piece = pieceGlyph(letter);
    piece.setAttribute("data-piece", letter);
    piece.setAttribute("data-cell", cell.name);
    piece.setAttribute("transform", `translate(${cell.x} ${cell.y})`);
    piece.style.pointerEvents = "none";
    layer.append(piece);
  }
}

// -- The set-up ------------------------------------------------------------------------------

const mySide = () => shared.private?.side ?? shared.hello?.side ?? null;
const inSideCase = (letter, side) => (side === "red" ? letter.toUpperCase() : letter.toLowerCase());

// The side's rows, as the board's row numbers from 0 (y north), north to south.
function ownRows(side) {
  const rows = new Set();
  for (const cell of ui.cells.values()) if (cell.home === side) rows.add(ui.grid.get(cell.name)[1]);
  return [...rows].sort((a, b) => b - a);
}

// A first draft: the army in the board file's order, from the back row forwards.
function firstDraft(side) {
  const army = shared.hello?.game?.army ?? [];
  const letters = army.flatMap((rank) => Array(rank.count).fill(rank.letter));
  const squares = [...ui.cells.values()]
    .filter((cell) => cell.home === side)
    .sort((a, b) => (side === "red" ? b.y - a.y : a.y - b.y) || a.x - b.x);
  const draft = new Map();
  squares.forEach((cell, i) => {
    if (i < letters.length) draft.set(cell.name, letters[i]);
  });
  return draft;
}

function draftLetters() {
  const side = mySide();
  const letters = {};
  for (const [cell, letter] of shared.draft ?? []) letters[cell] = inSideCase(letter, side);
  return letters;
}

// The set-up in the game's notation: the side's rows north to south, a capital letter
// a square, "." an empty one, "~" a lake (docs/rules-battle.md §2).
function setupText() {
  const board = shared.hello.game.board;
  const lakes = new Set((board.lakes ?? []).map((lake) => `${lake.x},${lake.y}`));
  const byPlace = new Map([...ui.grid].map(([name, [x, y]]) => [`${x},${y}`, name]));
  return ownRows(mySide())
    .map((y) => {
      let row = "";
      for (let x = 0; x < board.columns; x++) {
        const name = byPlace.get(`${x},${y}`);
        row += name ? (shared.draft.get(name) ?? ".") : lakes.has(`${x},${y}`) ? "~" : ".";
      }
      return row;
    })
    .join("/");
}

function choose(name) {
  const view = shared.private;
  if (!view || !view.setup_state || view.setup_state === "placing") return;
  if (ui.cells.get(name)?.home !== mySide()) return;
  if (ui.chosen === null) {
    ui.chosen = name;
  } else {
    const draft = shared.draft;
    const [a, b] = [draft.get(ui.chosen), draft.get(name)];
    if (b === undefined) draft.delete(ui.chosen);
    else draft.set(ui.chosen, b);
    if (a === undefined) draft.delete(name);
    else draft.set(name, a);
    ui.chosen = null;
  }
  renderPrivate(view);
}

function shuffle() {
  const draft = shared.draft;
  const cells = [...ui.cells.values()].filter((cell) => cell.home === mySide()).map((cell) => cell.name);
  const letters = cells.map((cell) => draft.get(cell));
  for (let i = letters.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [letters[i], letters[j]] = [letters[j], letters[i]];
  }
  draft.clear();
  cells.forEach((cell, i) => {
    if (letters[i] !== undefined) draft.set(cell, letters[i]);
  });
  ui.chosen = null;
  renderPrivate(shared.private);
}

const SETUP_WORDS = {
  waiting: "Not given yet: arrange your army, then give it.",
  placing: "Placing one piece at a time on the nest.",
  ready: "Given: the nest asks for the pieces where they go. You may still change it.",
};

function renderPrivate(view) {
  const setting = Boolean(view.setup_state);
  $("setup-panel").hidden = !setting;
  if (setting) {
    const side = view.side;
    // A set-up given (from this screen, or another of the same side's) is the draft
    // from then on, until it is changed here.
    const given = JSON.stringify(view.cells);
    if (Object.keys(view.cells).length > 0 && given !== ui.given) {
      shared.draft = new Map(Object.entries(view.cells).map(([cell, letter]) => [cell, letter.toUpperCase()]));
    }
    ui.given = given;
    if (!shared.draft) shared.draft = firstDraft(side);
    $("setup-state").textContent = SETUP_WORDS[view.setup_state] ?? view.setup_state;
    $("prompt").hidden = !view.prompt;
    $("prompt").textContent = view.prompt ? capitalised(view.prompt) : "";
    if (view.setup_state === "placing") $("setup-state").textContent += ` ${view.placed} of ${view.total} placed.`;
    renderPieces(view.setup_state === "placing" ? {} : draftLetters());
  } else {
    shared.draft = null;
    ui.chosen = null;
    renderPieces(view.cells);
  }
  renderTurn();
}

function renderTurn() {
  const game = shared.game;
  const side = mySide();
  let words = "";
  if (shared.private?.setup_state) words = "Setting up.";
  else if (game?.to_move) words = game.to_move === side ? "Your move." : `${game.to_move} to move.`;
  else if (game?.view === "over") words = "Game over.";
  $("turn").textContent = words;
}

const capitalised = (words) => words.charAt(0).toUpperCase() + words.slice(1);

// -- Status ---------------------------------------------------------------------------------

function setConnection(words, connected) {
  shared.connected = connected;
  $("connection").textContent = words;
  $("connection").classList.toggle("ok", connected);
  document.body.classList.toggle("disconnected", !connected);
}

function showStatus(text, kind) {
  const element = $("status");
  element.textContent = text;
  element.dataset.kind = kind;
  element.hidden = false;
  clearTimeout(ui.statusTimer);
  ui.statusTimer = setTimeout(() => {
    element.hidden = true;
  }, STATUS_MS);
}

function start() {
  $("side-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send("side_pin", { side: $("side-choice").value, pin: $("side-pin").value.trim() });
  });
  $("shuffle").addEventListener("click", shuffle);
  $("give").addEventListener("click", () => send("setup", { text: setupText() }));
  $("guide").addEventListener("click", () => send("guide"));
  $("withdraw").addEventListener("click", () => send("clear_setup"));
  connect();
}

start();
