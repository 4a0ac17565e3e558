// The simulator's page. It draws what the daemon's simulated devices show (the OLED,
// the lights) and the table the server keeps (which piece stands where), and turns
// clicks and drags into physical acts on that table: lifting, putting, sliding,
// knocking pieces off. It never applies a move itself: whatever the referee makes of
// an act comes back from the server. The protocol is docs/simulator.md.

import { squareGlyph, squareLayout } from "./squares.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const R = 40; // a cell's radius, centre to corner, in SVG units
const SQRT3 = Math.sqrt(3);
const LONG_PRESS_MS = 600;
const DRAG_THRESHOLD_PX = 6; // below this a pointer that moved is still a click
const SIGNALS_KEPT = 300;
const MAX_LOG_BYTES = 1024 * 1024; // the server refuses bigger logs (sim/simulator.py MAX_LOG_BYTES)
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10000;
const STATUS_MS = 5000;
const TOKEN_KEY = "nestref.session";

const VIEW_WORDS = {
  starting: "starting",
  setup: "setting up",
  playing: "playing",
  correcting: "putting the nest right",
  question: "which move? (a question)",
  over: "game over",
};

// What the tests and curious users can read; kept as the last message of each kind.
const shared = {
  connected: false,
  hello: null,
  table: null,
  game: null,
  lastError: null,
  lastRecording: null,
  oled: null,
  lights: null,
  replay: null,
};
window.nestref = shared;
// history.js replays a past game on the nest: these cells ({cell: letter}) instead of the
// table's, until it gives null (the live nest again).
shared.shownCells = null;
shared.showCells = (cells) => {
  shared.shownCells = cells;
  renderPieces(cells ?? shared.table?.cells ?? {});
};
// For the page's other scripts (remote.js): a request to the server, its id (null: not connected).
shared.send = (type, fields = {}) => send(type, fields);

// The page's own state: what the server does not need to know.
const ui = {
  socket: null,
  retries: 0,
  nextId: 1,
  canAct: false,
  greeted: false, // this connection's first hello has come
  pinId: null,
  resumeId: null,
  pieces: {}, // the game's pieces by letter, from the hello
  cells: new Map(), // name -> {name, q, r, home, x, y, element, glow}
  byAxial: new Map(), // "q,r" -> the same cell
  square: null, // a board of square cells: its layout (squares.js); null for a hex nest
  selectedPiece: null, // a hand piece's id, for the next `put`
  knockMode: false,
  recording: null, // unknown until the server says
  press: null, // a pointer held down on the nest: a click or a slide in the making
  lastPointerType: "mouse",
  downloadUrl: null,
  statusTimer: null,
};

const $ = (id) => document.getElementById(id);
const last = (items) => items[items.length - 1];
const nestSvg = $("nest");

// -- Talking to the server -------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  ui.socket = socket;
  ui.greeted = false;
  setConnection("connecting…", false);
  socket.addEventListener("open", () => {
    shared.connected = true;
    setConnection("connected", true);
  });
  socket.addEventListener("message", (event) => receive(event.data));
  socket.addEventListener("close", () => {
    if (ui.socket !== socket) return;
    ui.socket = null;
    shared.connected = false;
    cancelPress();
    // Back off, so a server that is down is not hammered; the first retry is quick
    // because most drops are a server restart.
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** ui.retries);
    ui.retries += 1;
    setConnection(`disconnected: trying again in ${Math.ceil(delay / 1000)} s`, false);
    setTimeout(connect, delay);
  });
}

function send(type, fields = {}) {
  if (!ui.socket || ui.socket.readyState !== WebSocket.OPEN) {
    showStatus("Not connected to the simulator.", "error");
    return null;
  }
  const id = ui.nextId++;
  ui.socket.send(JSON.stringify({ type, id, ...fields }));
  return id;
}

function receive(data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    showStatus("The server sent a message that is not JSON.", "error");
    return;
  }
  if (message === null || typeof message !== "object" || typeof message.type !== "string") return;
  const handle = handlers[message.type];
  if (handle) handle(message);
  // After handling, so that a listener sees window.nestref already up to date.
  document.dispatchEvent(new CustomEvent(`nestref:${message.type}`, { detail: message }));
}

const handlers = {
  hello(message) {
    shared.hello = message;
    ui.retries = 0;
    // A new connection is sent the recent signals again; a second hello (the PIN
    // taken) is not.
    if (!ui.greeted) $("signals").replaceChildren();
    ui.greeted = true;
    ui.pinId = ui.resumeId = null;
    const spectator = message.mode === "spectator";
    ui.canAct = !spectator && Boolean(message.can_act);
    document.body.classList.toggle("spectator", spectator);
    $("mode-label").textContent = spectator ? "live" : "simulator";
    document.title = spectator ? "nestref: live game" : "nestref simulator";
    ui.pieces = message.game?.pieces ?? {};
    buildNest(message.game?.board, message.geometry);
    buildHowToPlay(message.game);
    buildButtons(message.buttons ?? []);
    buildLineups(message.lineups ?? []);
    buildLevels(message.levels ?? []);
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (!spectator && !ui.canAct && message.pin_required) {
      if (token) ui.resumeId = send("resume", { token });
      else showPinForm();
    } else {
      $("pin-form").hidden = true;
    }
    updateControls();
  },

  table(message) {
    shared.table = message;
    const hand = message.hand ?? [];
    if (!hand.some((piece) => sameId(piece.id, ui.selectedPiece))) ui.selectedPiece = null;
    // The trays are redrawn: a keyboard user's focus follows the piece it was on
    // (from the box into the hand), or stays in its tray.
    const focused = document.activeElement?.closest?.(".tray-pieces [data-piece-id]");
    const tray = focused?.parentElement;
    renderPieces(shared.shownCells ?? message.cells ?? {}); // a past game replayed stays shown
    renderHand(hand);
    renderBox(message.box ?? []);
    if (focused) {
      const same = document.querySelector(`.tray-pieces [data-piece-id="${CSS.escape(focused.dataset.pieceId)}"]`);
      (same ?? tray.querySelector("[data-piece-id]"))?.focus();
    }
    updateControls();
  },

  oled(message) {
    shared.oled = message;
    const image = $("oled");
    image.src = message.png;
    image.alt = [message.headline, ...(message.lines ?? []), message.footer].filter(Boolean).join(" / ");
    $("bezel").classList.toggle("alert", Boolean(message.alert));
  },

  lights(message) {
    shared.lights = message;
    renderStatusLights(message.status ?? {});
    const lit = message.cells ?? {};
    for (const cell of ui.cells.values()) {
      const on = Boolean(lit[cell.name]);
      cell.element.classList.toggle("lit", on);
      cell.glow.classList.toggle("on", on);
    }
  },

  game(message) {
    shared.game = message;
    renderGame(message);
    $("next-step").textContent = nextStep(message);
    updateHeld();
  },

  signal(message) {
    const list = $("signals");
    const atBottom = isScrolledDown(list);
    const item = document.createElement("li");
    item.textContent = message.text;
    item.title = message.kind;
    item.dataset.kind = message.kind;
    list.append(item);
    while (list.children.length > SIGNALS_KEPT) list.firstElementChild.remove();
    if (atBottom) list.scrollTop = list.scrollHeight;
  },

  replay(message) {
    shared.replay = message;
    const progress = $("replay-progress");
    progress.max = Math.max(1, message.events);
    progress.value = message.done;
    let words = "no log loaded";
    if (message.loaded) {
      words = `${message.done} / ${message.events} events`;
      if (message.playing) words += `, playing at ${message.speed}×`;
      else if (message.done >= message.events) words += ", all played";
      else words += ", paused";
    }
    $("replay-status").textContent = words;
    updateControls();
  },

  recording(message) {
    ui.recording = Boolean(message.on);
    if (message.on) $("record-status").textContent = "recording…";
    else if ($("record-status").textContent === "recording…") $("record-status").textContent = "";
    if (!message.on && typeof message.text === "string") {
      shared.lastRecording = message.text;
      if (ui.downloadUrl) URL.revokeObjectURL(ui.downloadUrl);
      ui.downloadUrl = URL.createObjectURL(new Blob([message.text], { type: "text/plain" }));
      const link = $("record-download");
      link.href = ui.downloadUrl;
      link.hidden = false;
      const events = message.text.split("\n").filter((line) => /^\s*\d/.test(line)).length;
      $("record-status").textContent = `${events} events recorded`;
    }
    updateControls();
  },

  session(message) {
    sessionStorage.setItem(TOKEN_KEY, message.token);
    grantActing();
    showStatus("Unlocked: you may play.", "info");
  },

  ack(message) {
    if (message.id !== null && message.id === ui.resumeId) grantActing();
  },

  error(message) {
    shared.lastError = message;
    showStatus(message.message, "error");
    if (message.id === undefined || message.id === null) return;
    if (message.id === ui.resumeId) {
      // The server forgot us (it restarted, or the token expired): ask for the PIN again.
      sessionStorage.removeItem(TOKEN_KEY);
      ui.resumeId = null;
      showPinForm();
    } else if (message.id === ui.pinId) {
      $("pin").select();
    }
  },
};

function grantActing() {
  ui.canAct = shared.hello?.mode === "sim";
  ui.pinId = ui.resumeId = null;
  $("pin-form").hidden = true;
  updateControls();
}

function showPinForm() {
  const form = $("pin-form");
  form.hidden = false;
  $("pin").focus();
}

// -- The nest ---------------------------------------------------------------------------

function svgElement(name, attributes = {}) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function hexPoints(x, y, radius) {
  const corners = [];
  for (let k = 0; k < 6; k++) {
    const angle = (Math.PI / 180) * (30 + 60 * k);
    corners.push(`${(x + radius * Math.cos(angle)).toFixed(2)},${(y + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return corners.join(" ");
}

function buildNest(nest, geometry) {
  cancelPress();
  ui.cells.clear();
  ui.byAxial.clear();
  nestSvg.replaceChildren();
  const cells = nest?.cells ?? [];
  const square = squareLayout(nest, geometry, R);
  ui.square = square;
  for (const cell of cells) {
    const [x, y] = square ? square.place(cell.name) : [SQRT3 * R * (cell.q + cell.r / 2), -1.5 * R * cell.r];
    const entry = { ...cell, x, y, element: null, glow: null };
    ui.cells.set(cell.name, entry);
    ui.byAxial.set(`${cell.q},${cell.r}`, entry);
  }
  const xs = [...ui.cells.values()].map((cell) => cell.x);
  const ys = [...ui.cells.values()].map((cell) => cell.y);
  const margin = R * 1.1;
  const side = R * 0.9; // room above and below for the sides' names
  const left = Math.min(...xs, 0) - margin;
  const top = Math.min(...ys, 0) - margin - side;
  const width = Math.max(...xs, 0) - left + margin;
  const height = Math.max(...ys, 0) - top + margin + side;
  nestSvg.setAttribute("viewBox", `${left.toFixed(1)} ${top.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`);
  nestSvg.setAttribute(
    "aria-label",
    `The nest ${nest?.name ?? ""}: ${cells.length} cells, blue at the top. ` +
      "On a cell, Enter lifts or puts a piece and K knocks it off.",
  );

  const defs = svgElement("defs");
  const gradient = svgElement("radialGradient", { id: "glow-gradient" });
  // A ring rather than a disc: the cell's own name and piece stay readable under it.
  gradient.append(
    svgElement("stop", { offset: "0.55", "stop-color": "#ffd54f", "stop-opacity": "0" }),
    svgElement("stop", { offset: "0.75", "stop-color": "#ffc107", "stop-opacity": "0.9" }),
    svgElement("stop", { offset: "1", "stop-color": "#ffb300", "stop-opacity": "0" }),
  );
  defs.append(gradient);

  const cellLayer = svgElement("g", { id: "cell-layer" });
  // The glow sits above every cell, so a lit cell's halo is not hidden by its
  // neighbours, and under the pieces, so the pieces stay readable.
  const glowLayer = svgElement("g", { id: "glow-layer", "aria-hidden": "true" });
  const pieceLayer = svgElement("g", { id: "piece-layer" });
  const dragLayer = svgElement("g", { id: "drag-layer", "aria-hidden": "true" });

  const midX = (Math.min(...xs) + Math.max(...xs)) / 2 || 0;
  const northLabel = svgElement("text", { x: midX, y: top + side * 0.75, class: "side-name blue" });
  northLabel.textContent = "blue";
  const southLabel = svgElement("text", { x: midX, y: top + height - side * 0.35, class: "side-name red" });
  southLabel.textContent = "red";

  for (const cell of ui.cells.values()) {
    const group = svgElement("g", { class: "cell", "data-cell": cell.name, tabindex: "0", role: "button" });
    if (cell.home) group.classList.add(square ? square.homeClass(cell.home) : `home-${cell.home}`);
    const title = svgElement("title");
    title.textContent = cell.home ? `${cell.name} (${homeWords(cell.home)})` : cell.name;
    const hex = square
      ? square.outline(cell.x, cell.y)
      : svgElement("polygon", { class: "hex", points: hexPoints(cell.x, cell.y, R * 0.97) });
    const label = svgElement("text", { class: "cell-label", x: cell.x, y: cell.y, dy: "0.35em" });
    label.textContent = cell.name;
    group.append(title, hex, label);
    cellLayer.append(group);
    cell.element = group;
    cell.glow = svgElement("circle", { class: "glow", cx: cell.x, cy: cell.y, r: R * 1.15 });
    glowLayer.append(cell.glow);
  }
  if (square) cellLayer.prepend(...square.lakes());
  nestSvg.append(defs, northLabel, southLabel, cellLayer, glowLayer, pieceLayer, dragLayer);
  if (shared.table || shared.shownCells) renderPieces(shared.shownCells ?? shared.table.cells ?? {});
  if (shared.lights) handlers.lights(shared.lights);
}

const EGG_PATH = (() => {
  const s = (value) => (value * R).toFixed(1);
  return (
    `M0,${s(-0.64)} C${s(0.36)},${s(-0.64)} ${s(0.52)},${s(0.02)} ${s(0.52)},${s(0.2)} ` +
    `C${s(0.52)},${s(0.48)} ${s(0.3)},${s(0.62)} 0,${s(0.62)} ` +
    `C${s(-0.3)},${s(0.62)} ${s(-0.52)},${s(0.48)} ${s(-0.52)},${s(0.2)} ` +
    `C${s(-0.52)},${s(0.02)} ${s(-0.36)},${s(-0.64)} 0,${s(-0.64)} Z`
  );
})();

function starPoints(tips, outer, inner) {
  const points = [];
  for (let k = 0; k < tips * 2; k++) {
    const radius = k % 2 === 0 ? outer : inner;
    // Tips to the sides, not down, so the cell's name below the piece stays visible.
    const angle = (Math.PI * k) / tips;
    points.push(`${(radius * Math.cos(angle)).toFixed(1)},${(radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

// What a cell's side is to it: a homebase on a hex nest, set-up rows on a square board.
function homeWords(home) {
  return ui.square ? ui.square.homeWords(home) : `${home} homebase`;
}

// The game's pieces (the server's hello says them): letter → side, name, shape, order.
function pieceInfo(letter) {
  return Object.hasOwn(ui.pieces, letter) ? ui.pieces[letter] : null;
}

function pieceName(letter) {
  const info = pieceInfo(letter);
  return info ? `${info.side} ${info.name}` : "piece not known yet";
}

// One drawing per kind, so a piece reads by its shape as well as its colour and letter;
// the game names the shape (Operation Cuckoo: an egg-shaped egg, a diamond for a
// warbler, a six-pointed badge for the cuckoo).
function pieceGlyph(letter) {
  const info = pieceInfo(letter) ?? { side: "unknown", name: "unknown", shape: "disc" };
  const group = svgElement("g", { class: `glyph ${info.side} ${info.name} shape-${info.shape}` });
  let body;
  if (info.shape === "egg") {
    body = svgElement("path", { d: EGG_PATH });
  } else if (info.shape === "diamond") {
    const half = 0.45 * R;
    body = svgElement("rect", {
      x: -half,
      y: -half,
      width: 2 * half,
      height: 2 * half,
      rx: 0.12 * R,
      transform: "rotate(45)",
    });
  } else if (info.shape === "star") {
    body = svgElement("polygon", { points: starPoints(6, 0.76 * R, 0.56 * R) });
  } else {
    body = squareGlyph(info.shape, R) ?? svgElement("circle", { r: 0.55 * R });
  }
  body.classList.add("body");
  const text = svgElement("text", { class: "letter", dy: "0.35em" });
  text.textContent = pieceInfo(letter) ? letter : "?";
  group.append(body, text);
  return group;
}

function renderPieces(pieces) {
  const layer = $("piece-layer");
  if (!layer) return;
  layer.replaceChildren();
  for (const cell of ui.cells.values()) {
    const letter = pieces[cell.name];
    const occupied = typeof letter === "string";
    cell.element.classList.toggle("occupied", occupied);
    const label = cell.element.querySelector(".cell-label");
    label.setAttribute("y", occupied ? cell.y + R * 0.8 : cell.y);
    const where = cell.home ? `, ${homeWords(cell.home)}` : "";
    cell.element.setAttribute(
      "aria-label",
      `${cell.name}${where}: ${occupied ? pieceName(letter) : "empty"}`,
    );
    if (!occupied) continue;
    const piece = pieceGlyph(letter);
    piece.classList.add("piece");
    piece.setAttribute("data-piece", letter);
    piece.setAttribute("data-cell", cell.name);
    piece.setAttribute("transform", `translate(${cell.x.toFixed(2)} ${cell.y.toFixed(2)})`);
    const title = svgElement("title");
    title.textContent = `${pieceName(letter)} on ${cell.name}`;
    piece.prepend(title);
    if (ui.press?.dragging && ui.press.path[0] === cell.name) piece.classList.add("dragging");
    layer.append(piece);
  }
}

// -- Acting on the nest -------------------------------------------------------------------

function axialRound(q, r) {
  const s = -q - r;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}

function svgPoint(clientX, clientY) {
  const matrix = nestSvg.getScreenCTM();
  if (!matrix) return null;
  return new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
}

// The cell under a point of the screen, from geometry rather than from the element hit:
// a dragged piece or a glow may cover the cell.
function cellAt(clientX, clientY) {
  const point = svgPoint(clientX, clientY);
  if (!point) return null;
  if (ui.square) return ui.square.cellAt(point);
  const r = -point.y / (1.5 * R);
  const q = point.x / (SQRT3 * R) - r / 2;
  const [rq, rr] = axialRound(q, r);
  return ui.byAxial.get(`${rq},${rr}`)?.name ?? null;
}

function hexDistance(a, b) {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

// The cells from `from` (excluded) to `to` (included), each next to the one before: a
// fast drag skips cells between two pointer events, but a sliding piece crosses them.
function cellsBetween(from, to) {
  if (ui.square) return ui.square.between(from, to);
  const a = ui.cells.get(from);
  const b = ui.cells.get(to);
  const steps = hexDistance(a, b);
  const line = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    // The nudge breaks ties on cell edges the same way all along the line.
    const [q, r] = axialRound(a.q + (b.q - a.q) * t + 1e-6, a.r + (b.r - a.r) * t + 1e-6);
    const cell = ui.byAxial.get(`${q},${r}`);
    if (cell && cell.name !== last(line)) line.push(cell.name);
  }
  return line;
}

function isPiece(cell) {
  return typeof shared.table?.cells?.[cell] === "string";
}

function actOn(cell, { knock = false } = {}) {
  if (!ui.canAct) return;
  if (isPiece(cell)) {
    send(knock || ui.knockMode ? "knock" : "lift", { cell });
    return;
  }
  if (knock) return;
  // Sent even when the hand looks empty here: the table update of a lift just made
  // may still be on its way, and the server says so if the hand is empty.
  const fields = { cell };
  if (ui.selectedPiece !== null) fields.piece = ui.selectedPiece;
  send("put", fields);
}

function onPointerDown(event) {
  if (!ui.canAct || ui.press || event.button !== 0) return;
  const cell = cellAt(event.clientX, event.clientY);
  if (!cell) return;
  event.preventDefault(); // no text selection, no native drag of the SVG
  ui.press = {
    pointerId: event.pointerId,
    pointerType: event.pointerType,
    x: event.clientX,
    y: event.clientY,
    path: [cell],
    hasPiece: isPiece(cell),
    dragging: false,
    ghost: null,
  };
  nestSvg.setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  const press = ui.press;
  if (!press || event.pointerId !== press.pointerId || !press.hasPiece) return;
  if (!press.dragging) {
    if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD_PX) return;
    press.dragging = true;
    press.ghost = pieceGlyph(shared.table.cells[press.path[0]]);
    press.ghost.classList.add("ghost");
    $("drag-layer").append(press.ghost);
    nestSvg.querySelector(`[data-piece][data-cell="${press.path[0]}"]`)?.classList.add("dragging");
    nestSvg.classList.add("sliding");
  }
  const point = svgPoint(event.clientX, event.clientY);
  if (point) press.ghost.setAttribute("transform", `translate(${point.x.toFixed(1)} ${point.y.toFixed(1)})`);
  const cell = cellAt(event.clientX, event.clientY);
  if (!cell || cell === last(press.path)) return;
  for (const next of cellsBetween(last(press.path), cell)) {
    // Coming back to a cell already crossed cuts the loop off: the player is
    // correcting the drag, and a slide crosses each cell once.
    const seen = press.path.indexOf(next);
    if (seen >= 0) press.path.length = seen + 1;
    else press.path.push(next);
  }
  markPath(press.path);
}

function onPointerUp(event) {
  const press = ui.press;
  if (!press || event.pointerId !== press.pointerId) return;
  cancelPress();
  const { path } = press;
  if (press.dragging && path.length > 1 && last(path) !== path[0]) {
    send("slide", { path });
  } else {
    actOn(path[0], { knock: event.altKey });
  }
}

function cancelPress() {
  const press = ui.press;
  if (!press) return;
  ui.press = null;
  press.ghost?.remove();
  nestSvg.querySelector(".piece.dragging")?.classList.remove("dragging");
  nestSvg.classList.remove("sliding");
  markPath([]);
  if (nestSvg.hasPointerCapture?.(press.pointerId)) nestSvg.releasePointerCapture(press.pointerId);
}

function markPath(path) {
  const on = new Set(path);
  for (const cell of ui.cells.values()) cell.element.classList.toggle("on-path", on.has(cell.name));
}

function onContextMenu(event) {
  const cell = cellAt(event.clientX, event.clientY);
  if (!cell || !isPiece(cell) || !ui.canAct) return;
  event.preventDefault();
  // On a touch screen a long press opens the context menu: a player hesitating before
  // a drag must not knock the piece off. Touch players use the "Knock off" tool.
  if (event.pointerType === "touch" || ui.lastPointerType === "touch") return;
  cancelPress();
  send("knock", { cell });
}

function onNestKey(event) {
  const cell = event.target.closest?.(".cell")?.dataset.cell;
  if (event.key === "Escape") {
    cancelPress();
    setKnockMode(false);
    return;
  }
  if (!cell) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    actOn(cell);
  } else if (event.key === "k" || event.key === "K" || event.key === "Delete") {
    event.preventDefault();
    actOn(cell, { knock: true });
  }
}

function setKnockMode(on) {
  ui.knockMode = on;
  $("knock-mode").setAttribute("aria-pressed", String(on));
  nestSvg.classList.toggle("knocking", on);
}

// -- Hand and box ---------------------------------------------------------------------------

function sameId(a, b) {
  return a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b);
}

function trayItem(piece) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tray-piece";
  button.dataset.pieceId = String(piece.id);
  button.dataset.letter = piece.piece;
  button.setAttribute("aria-label", pieceName(piece.piece));
  button.title = pieceName(piece.piece);
  const icon = svgElement("svg", { viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`, "aria-hidden": "true" });
  icon.append(pieceGlyph(piece.piece));
  button.append(icon);
  return button;
}

function renderHand(hand) {
  const container = $("hand");
  container.replaceChildren();
  for (const piece of hand) {
    const item = trayItem(piece);
    item.addEventListener("click", () => {
      ui.selectedPiece = sameId(piece.id, ui.selectedPiece) ? null : piece.id;
      markHand();
    });
    container.append(item);
  }
  markHand();
  $("hand-note").hidden = hand.length > 0;
}

// Which piece `put` will put down: the one chosen, or else the one a player would (the
// server says which: of the side to move, as a capturer puts down its own piece); none
// when the hand holds different pieces and the choice is the player's.
function markHand() {
  const items = [...$("hand").querySelectorAll("[data-piece-id]")];
  const chosen = items.find((item) => sameId(item.dataset.pieceId, ui.selectedPiece));
  const next = chosen ?? items.find((item) => sameId(item.dataset.pieceId, shared.table?.next));
  for (const item of items) {
    item.setAttribute("aria-pressed", String(item === chosen));
    item.classList.toggle("next", item === next);
    const what = item === next ? "put down next" : "click to put this one down next";
    item.title = `${pieceName(item.dataset.letter)}: ${what}`;
  }
  const choose = $("hand-choose");
  choose.hidden = Boolean(next) || items.length < 2;
}

const SIDE_ORDER = { red: 0, blue: 1 };

function renderBox(box) {
  const container = $("box");
  container.replaceChildren();
  // Sorted, so that the box reads as two sets of pieces rather than the order they fell in.
  const rank = (piece) => {
    const info = pieceInfo(piece.piece);
    return info ? (SIDE_ORDER[info.side] ?? 2) * 100 + info.order : 1000;
  };
  for (const piece of [...box].sort((a, b) => rank(a) - rank(b))) {
    const item = trayItem(piece);
    item.title = `${pieceName(piece.piece)}: click to take it into the hand`;
    item.addEventListener("click", () => send("take", { piece: piece.id }));
    container.append(item);
  }
  $("box-note").hidden = box.length > 0;
}

function dropFromHand() {
  const hand = shared.table?.hand ?? [];
  const chosen =
    hand.find((piece) => sameId(piece.id, ui.selectedPiece)) ??
    hand.find((piece) => sameId(piece.id, shared.table?.next)) ??
    last(hand);
  if (chosen) send("drop", { piece: chosen.id });
}

// -- The device: OLED, lights, buttons ------------------------------------------------------

function renderStatusLights(status) {
  const container = $("lights");
  const names = Object.keys(status);
  const shown = [...container.querySelectorAll(".led")].map((led) => led.dataset.light);
  if (names.join() !== shown.join()) {
    container.replaceChildren();
    for (const name of names) {
      const wrap = document.createElement("span");
      wrap.className = "light";
      const led = document.createElement("span");
      led.className = `led led-${name}`;
      led.id = `light-${name}`;
      led.dataset.light = name;
      led.setAttribute("role", "img");
      const label = document.createElement("span");
      label.textContent = name.replace(/_/g, " ");
      label.setAttribute("aria-hidden", "true");
      wrap.append(led, label);
      container.append(wrap);
    }
  }
  for (const name of names) {
    const led = $(`light-${name}`);
    led.classList.toggle("on", Boolean(status[name]));
    led.setAttribute("aria-label", `${name.replace(/_/g, " ")} light ${status[name] ? "on" : "off"}`);
  }
}

// What each button does when held, as a named control of its own: on the nest a hold
// of two seconds is deliberate, on a page it would be one click, so what cannot be
// undone asks first. `ask` says what will happen, given the game now; none: it is
// harmless and done at once.
const HELD = {
  confirm: {
    label: "New game…",
    ask: (game) =>
      game?.to_move
        ? { text: "Stop this game and set the nest up for a new one? This game will not count.", ok: "Stop and set up" }
        : { text: "Set the nest up for a new game?", ok: "Set up a new game" },
  },
  take_back: {
    label: "Resign…",
    isAvailable: (game) => Boolean(game?.to_move),
    ask: (game) => {
      const other = game.to_move === "red" ? "blue" : "red";
      return { text: `${game.to_move} resigns: ${other} wins this game.`, ok: `Resign for ${game.to_move}` };
    },
  },
  switch: { label: "Next lineup", isAvailable: (game) => game?.view === "setup" },
};

function buildButtons(buttons) {
  const container = $("buttons");
  const held = $("held");
  container.replaceChildren();
  held.replaceChildren();
  for (const { name, press: pressHelp, hold: holdHelp } of buttons) {
    const press = document.createElement("button");
    press.type = "button";
    press.id = `button-${name}`;
    press.className = "device-button";
    press.textContent = name.replace(/_/g, " ");
    press.title = `${pressHelp}. Long-press: ${holdHelp.replace(/^Hold:?\s*/i, "")}.`;
    attachLongPress(press, name);
    container.append(press);

    const action = HELD[name] ?? { label: `${name.replace(/_/g, " ")} (held)…` };
    const control = document.createElement("button");
    control.type = "button";
    control.id = `held-${name}`;
    control.className = "held-button";
    control.dataset.button = name;
    control.textContent = action.label;
    control.title = `${holdHelp} (the ${name.replace(/_/g, " ")} button held)`;
    control.addEventListener("click", () => hold(name));
    held.append(control);
  }
  updateHeld();
}

// The button `name` held: at once if harmless, else once the user has said yes.
function hold(name) {
  const action = HELD[name];
  if (action?.isAvailable && !action.isAvailable(shared.game)) return;
  const question = action?.ask?.(shared.game) ?? (action ? null : { text: `Hold ${name.replace(/_/g, " ")}?`, ok: "Hold it" });
  if (!question) {
    send("button", { name, hold: true });
    return;
  }
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = question.text;
  $("confirm-ok").textContent = question.ok;
  dialog.dataset.button = name;
  dialog.returnValue = "";
  dialog.showModal();
}

function onConfirmClosed() {
  const dialog = $("confirm-dialog");
  if (dialog.returnValue === "ok" && dialog.dataset.button) send("button", { name: dialog.dataset.button, hold: true });
  delete dialog.dataset.button;
}

// The named held controls that mean nothing now are disabled (resign with no game on).
function updateHeld() {
  const active = ui.canAct && shared.connected;
  for (const control of $("held").querySelectorAll("[data-button]")) {
    const action = HELD[control.dataset.button];
    control.disabled = !active || Boolean(action?.isAvailable && !action.isAvailable(shared.game));
  }
}

// A long press on a device button holds it, as a finger would on the real nest; what
// cannot be undone asks first, as its named control does.
function attachLongPress(button, name) {
  let timer = null;
  let held = false;
  const stop = () => {
    clearTimeout(timer);
    timer = null;
    button.classList.remove("pressing");
  };
  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || button.disabled) return;
    held = false;
    button.classList.add("pressing");
    timer = setTimeout(() => {
      stop();
      held = true;
      hold(name);
    }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointerleave", "pointercancel"]) button.addEventListener(type, stop);
  button.addEventListener("click", (event) => {
    // The click that ends a long press is not a press too; a keyboard's click
    // (detail 0) never follows a long press.
    if (held && event.detail !== 0) {
      held = false;
      return;
    }
    send("button", { name });
  });
  button.addEventListener("contextmenu", (event) => event.preventDefault());
}

function buildLineups(names) {
  const select = $("setup-lineup");
  const chosen = select.value;
  select.replaceChildren(new Option("the one expected", ""));
  for (const name of names) select.append(new Option(name, name));
  select.value = names.includes(chosen) ? chosen : "";
}

// -- The game --------------------------------------------------------------------------------

function buildLevels(levels) {
  const select = $("computer-level");
  const chosen = select.value;
  select.replaceChildren(...levels.map((level) => new Option(`${level.number} ${level.name}`, String(level.number))));
  if (chosen) select.value = chosen;
}

function sendPlayers() {
  send("players", {
    red: $("player-red").value,
    blue: $("player-blue").value,
    level: Number($("computer-level").value),
  });
}

function renderPlayers(game) {
  // What the daemon says, unless the user is choosing right now.
  for (const side of ["red", "blue"]) {
    const select = $(`player-${side}`);
    const player = game.players?.[side];
    if (player && document.activeElement !== select) select.value = player;
  }
  const level = $("computer-level");
  if (game.level && document.activeElement !== level) level.value = String(game.level);
  let words = "–";
  if (game.computer_move) words = `plays ${game.computer_move}: make it on the nest`;
  else if (game.thinking) words = "thinking…";
  else if (Object.values(game.players ?? {}).includes("computer")) words = `level ${game.level}, waiting`;
  $("computer-state").textContent = words;
}

function renderGame(game) {
  $("game-number").textContent = game.number ?? "–";
  renderPlayers(game);
  const toMove = $("to-move");
  toMove.textContent = game.to_move ?? "nobody";
  toMove.className = game.to_move ? `side-${game.to_move}` : "";
  const [red, blue] = game.score ?? [0, 0];
  $("score").textContent = `red ${red} – ${blue} blue`;
  // A game played with a clock: each side's time, as the OLED shows it.
  $("clock-fact").hidden = !game.clock;
  $("clock").textContent = game.clock ? `red ${game.clock[0]} – ${game.clock[1]} blue` : "";
  $("game-view").textContent = VIEW_WORDS[game.view] ?? game.view ?? "–";
  $("position-text").textContent = game.position ?? "";
  // Moves the referee took that are not on disk yet: not played until they are.
  const waiting = game.waiting ?? [];
  $("waiting").hidden = waiting.length === 0;
  $("waiting").textContent = waiting.length ? `waiting to be saved: ${waiting.join(" ")}` : "";
  // Numbered by moves, as players count them: the starter's and the reply on one line.
  const list = $("moves");
  const moves = game.moves ?? [];
  const shown = [...list.querySelectorAll(".ply")].map((item) => item.textContent);
  if (moves.join("\n") === shown.join("\n")) return;
  const items = [];
  for (let first = 0; first < moves.length; first += 2) {
    const item = document.createElement("li");
    for (const move of moves.slice(first, first + 2)) {
      const ply = document.createElement("span");
      ply.className = "ply";
      ply.textContent = move;
      item.append(ply);
    }
    items.push(item);
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

const capitalised = (words) => words.charAt(0).toUpperCase() + words.slice(1);

// What the players do next, in a sentence: the first game's first move, what the OLED
// asks, and after a result how the next game starts.
function nextStep(game) {
  const side = game.to_move;
  const inSimulator = shared.hello?.mode !== "spectator";
  switch (game.view) {
    case "setup":
      if (shared.hello?.own_screens) {
        return inSimulator
          ? `Next: game ${game.number}. Each player gives a set-up on their own screen (player.html, with their ` +
              "side's PIN); then “Set up lineup” puts the pieces where the nest asks."
          : `Next: game ${game.number}, once each player has set up on their own screen and the nest shows it.`;
      }
      return inSimulator
        ? `Next: game ${game.number}. Put its lineup on the nest: “Set up lineup” does it for you.`
        : `Next: game ${game.number}, once its lineup stands on the nest.`;
    case "over":
      return inSimulator
        ? "Game over. For the next game: “Set up lineup” (or clear the nest and set the pieces up by hand)."
        : "Game over. The next game starts once its lineup stands on the nest.";
    case "correcting":
      return "Put the nest right as the OLED says: the lit cells show where.";
    case "question":
      return "Which move was made? Switch points at the next answer, confirm chooses it.";
    case "playing":
      if (game.computer_move) return `The computer plays ${game.computer_move}: make its move on the nest.`;
      if (game.thinking) return "The computer is choosing its move…";
      if (!side) return "";
      if ((game.moves ?? []).length === 0) return `${capitalised(side)} to move: lift a piece to move it.`;
      return `${capitalised(side)} to move.`;
    default:
      return "";
  }
}

// The game's rules, as the server has them from the game; its pieces drawn as on the
// nest; its homebases, from the board.
function buildHowToPlay(game) {
  $("how-to-play-title").textContent = game?.title ? `${game.title}` : "";
  const pieces = Object.entries(game?.pieces ?? {}).sort(
    ([, a], [, b]) => (SIDE_ORDER[a.side] ?? 2) * 100 + a.order - ((SIDE_ORDER[b.side] ?? 2) * 100 + b.order),
  );
  $("how-to-play-pieces").replaceChildren(
    ...pieces.map(([letter]) => {
      const item = document.createElement("li");
      const icon = svgElement("svg", { viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`, "aria-hidden": "true" });
      icon.append(pieceGlyph(letter));
      const name = document.createElement("span");
      name.textContent = pieceName(letter);
      item.append(icon, name);
      return item;
    }),
  );
  const homes = {};
  // (A square board's set-up rows are whole rows: the rules say which.)
  const square = game?.board?.shape === "square";
  for (const cell of square ? [] : game?.board?.cells ?? []) if (cell.home) (homes[cell.home] ??= []).push(cell.name);
  const sides = Object.entries(homes).map(([side, cells]) => `${side}'s ${cells.join(" ")}`);
  $("how-to-play-homes").textContent = sides.length
    ? `Homebases, shaded on the nest in their side's colour: ${sides.join("; ")}. Red plays up the page, blue down.`
    : "";
  $("how-to-play-rules").replaceChildren(
    ...(game?.rules ?? []).map((words) => {
      const item = document.createElement("li");
      item.textContent = words;
      return item;
    }),
  );
}

// -- Sensor logs ---------------------------------------------------------------------------

async function loadLog(input) {
  const file = input.files?.[0];
  // Cleared at once, so that choosing the same file again loads it again.
  input.value = "";
  if (!file) return;
  if (file.size > MAX_LOG_BYTES) {
    showStatus(`${file.name} is larger than 1 MiB: the simulator takes logs up to 1 MiB.`, "error");
    return;
  }
  const text = await file.text();
  if (send("log_load", { text }) !== null) $("replay-status").textContent = `loading ${file.name}…`;
}

function replaySpeed() {
  return Number($("replay-speed").value);
}

// -- Controls, status -------------------------------------------------------------------------

function updateControls() {
  const active = ui.canAct && shared.connected;
  $("new-pin").hidden = !(active && shared.hello?.pin_required);
  document.body.classList.toggle("locked", !ui.canAct);
  for (const control of document.querySelectorAll(".control button, .control select, .control input, #buttons button")) {
    control.disabled = !active;
  }
  if (!active) return;
  const replay = shared.replay;
  const loaded = Boolean(replay?.loaded);
  const finished = loaded && replay.done >= replay.events;
  $("replay-play").disabled = !loaded || finished;
  $("replay-pause").disabled = !replay?.playing;
  $("replay-step").disabled = !loaded || finished;
  // Unknown (a page opened while recording) leaves both enabled.
  $("record-start").disabled = ui.recording === true;
  $("record-stop").disabled = ui.recording === false;
  $("drop").disabled = (shared.table?.hand ?? []).length === 0;
  updateHeld();
}

function setConnection(words, connected) {
  const element = $("connection");
  element.textContent = words;
  element.classList.toggle("ok", connected);
  document.body.classList.toggle("disconnected", !connected);
  updateControls();
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

function isScrolledDown(element) {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 24;
}

// -- Wiring -------------------------------------------------------------------------------------

function start() {
  nestSvg.addEventListener("pointerdown", (event) => {
    ui.lastPointerType = event.pointerType;
    onPointerDown(event);
  });
  nestSvg.addEventListener("pointermove", onPointerMove);
  nestSvg.addEventListener("pointerup", onPointerUp);
  nestSvg.addEventListener("pointercancel", cancelPress);
  nestSvg.addEventListener("contextmenu", onContextMenu);
  nestSvg.addEventListener("keydown", onNestKey);

  $("knock-mode").addEventListener("click", () => setKnockMode(!ui.knockMode));
  $("setup").addEventListener("click", () => {
    const lineup = $("setup-lineup").value;
    send("setup", lineup ? { lineup } : {});
  });
  $("clear").addEventListener("click", () => send("clear"));
  for (const id of ["player-red", "player-blue", "computer-level"]) $(id).addEventListener("change", sendPlayers);
  $("drop").addEventListener("click", dropFromHand);
  $("hint").addEventListener("click", () => send("hint"));

  $("log-file").addEventListener("change", (event) => loadLog(event.target));
  $("replay-play").addEventListener("click", () => send("replay_play", { speed: replaySpeed() }));
  $("replay-speed").addEventListener("change", () => {
    if (shared.replay?.playing) send("replay_play", { speed: replaySpeed() });
  });
  $("replay-pause").addEventListener("click", () => send("replay_pause"));
  $("replay-step").addEventListener("click", () => send("replay_step"));
  $("record-start").addEventListener("click", () => send("record_start"));
  $("record-stop").addEventListener("click", () => send("record_stop"));

  $("confirm-dialog").addEventListener("close", onConfirmClosed);
  $("how-to-play-link").addEventListener("click", () => {
    $("how-to-play").open = true;
  });
  $("new-pin").addEventListener("click", () => send("new_pin"));
  $("pin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const pin = $("pin").value.trim();
    if (pin) ui.pinId = send("pin", { pin });
  });

  connect();
}

start();
