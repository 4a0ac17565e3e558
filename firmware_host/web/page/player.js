// @ts-check
// A player's own screen of a game that hides pieces (the battle game): behind its side's
// own PIN it shows that side's ranks (never the other side's, but for those a strike
// showed), lets the player arrange and give a set-up, or place the army one piece at a
// time on the nest as this screen asks. It never moves a piece: the nest does, and the
// server says what the referee made of it (docs/simulator.md, "The players' own screens").

import { BoardLayout, drawBoard } from "./board.js";
import { byId, svgElement, showStatus } from "./dom.js";
import { capitalised } from "./game-panel.js";
import { Pieces } from "./pieces.js";
import { Channel } from "./socket.js";

const R = 40; // as the shared page's cells
const SIGNALS_KEPT = 300;

/**
 * The server's `hello` on `/ws/player`.
 *
 * @typedef {object} PlayerHello
 * @property {boolean} open whether the game hides anything (else there are no private screens)
 * @property {string | null} [side] the session's side, once its PIN is given
 * @property {string} [pin_from] where a player finds their side's PIN, in words
 * @property {import("./game-panel.js").GamePage} [game]
 */

/**
 * The side's own view (`private`): its pieces with its own ranks, or its set-up.
 *
 * @typedef {object} PrivateMessage
 * @property {string} side
 * @property {Record<string, string>} cells
 * @property {string | null} [setup_state] `waiting`, `placing`, `ready`, `checking`; none once the game is on
 * @property {string | null} [prompt]
 * @property {number} [placed]
 * @property {number} [total]
 * @property {string | null} [hint] a hint for this side, shown here alone (the move would say what the piece is)
 */

/**
 * What the tests and curious users read (`window.nestrefPlayer`).
 *
 * @typedef {object} PlayerShared
 * @property {boolean} connected
 * @property {PlayerHello | null} hello
 * @property {PrivateMessage | null} private
 * @property {import("./game-panel.js").GameMessage | null} game
 * @property {Map<string, string> | null} draft the set-up being arranged: square → rank letter
 * @property {{ message: string } | null} lastError
 * @property {string[]} ignored
 */

const ui = {
  layout: new BoardLayout(null, R),
  pieces: new Pieces(null, R),
  /** @type {Map<string, SVGGElement>} */
  cells: new Map(),
  pieceLayer: svgElement("g"),
  /** @type {string | null} the square chosen first of two to swap */
  chosen: null,
  /** @type {string | null} the set-up the server last said was given, as JSON */
  given: null,
  /** @type {{ fill: string[], empty: string[] }} the cells the nest must fill and empty, as last said */
  needed: { fill: [], empty: [] },
};
const wantedSide = new URLSearchParams(location.search).get("side");

/** @param {string} side */
const tokenKey = (side) => `nestref.player.${side}`;

/** @type {import("./socket.js").Handlers} */
const handlers = {
  /** @param {PlayerHello} message */
  hello(message) {
    shared.hello = message;
    if (!message.open) {
      byId("side-title").textContent = "no private screens";
      showStatus(`${message.game?.title ?? "This game"} hides nothing: the shared page shows it all.`, "info");
      return;
    }
    buildField(message.game);
    renderKey(message.game);
    const side = message.side;
    document.body.dataset.side = side ?? "";
    byId("side-title").textContent = side ? `${side}'s own screen` : "your own screen";
    const form = byId("side-form");
    if (side) {
      form.hidden = true;
      return;
    }
    const remembered = ["red", "blue"].find(
      (each) => (!wantedSide || each === wantedSide) && sessionStorage.getItem(tokenKey(each)),
    );
    if (remembered) {
      channel.send("resume", { token: sessionStorage.getItem(tokenKey(remembered)) });
      return;
    }
    if (wantedSide) byId("side-choice", HTMLSelectElement).value = wantedSide;
    byId("pin-from").textContent = message.pin_from ?? "";
    form.hidden = false;
    byId("side-pin", HTMLInputElement).focus();
  },

  /** @param {{ side: string, token: string }} message */
  session(message) {
    sessionStorage.setItem(tokenKey(message.side), message.token);
    showStatus(`You are ${message.side}. Keep this screen to yourself.`, "info");
  },

  /** @param {PrivateMessage} message */
  private(message) {
    shared.private = message;
    renderPrivate(message);
  },

  /** @param {import("./game-panel.js").GameMessage} message */
  game(message) {
    shared.game = message;
    renderTurn();
  },

  /** @param {{ kind: string, text: string }} message */
  signal(message) {
    const found = message.kind === "SetupNeeded" ? /fill (.*); empty (.*)$/.exec(message.text) : null;
    if (found) {
      const cells = (/** @type {string} */ words) => (words === "-" ? [] : words.split(" "));
      ui.needed = { fill: cells(found[1]), empty: cells(found[2]) };
    }
    const list = byId("signals");
    const item = document.createElement("li");
    item.textContent = message.text;
    item.dataset.kind = message.kind;
    list.append(item);
    while (list.children.length > SIGNALS_KEPT) list.firstElementChild?.remove();
  },

  ack() {},

  /** @param {{ message: string }} message */
  error(message) {
    shared.lastError = message;
    showStatus(message.message, "error");
    if (/session has ended/.test(message.message)) {
      for (const side of ["red", "blue"]) sessionStorage.removeItem(tokenKey(side));
      byId("side-form").hidden = false;
    }
  },
};

const channel = new Channel({
  path: "/ws/player",
  handlers,
  events: "nestref",
  onOpen: () => setConnection("connected", true),
  onClose: (delay) => setConnection(`disconnected: trying again in ${Math.ceil(delay / 1000)} s`, false),
});

/** @type {PlayerShared} */
const shared = {
  connected: false,
  hello: null,
  private: null,
  game: null,
  draft: null,
  lastError: null,
  ignored: channel.ignored,
};
Object.assign(window, { nestrefPlayer: shared });

// -- The field ----------------------------------------------------------------------------

/** @param {import("./game-panel.js").GamePage | undefined} game */
function buildField(game) {
  const svg = byId("field", SVGSVGElement);
  ui.layout = new BoardLayout(game?.board, R);
  ui.pieces = new Pieces(game?.pieces, R);
  const { cells } = drawBoard(svg, ui.layout, { margin: ui.layout.pitch, labels: true, focusable: true });
  ui.cells = cells;
  for (const [name, group] of cells) {
    group.addEventListener("click", () => choose(name));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") choose(name);
    });
  }
  ui.pieceLayer = svgElement("g", { id: "piece-layer" });
  svg.append(ui.pieceLayer);
}

/** @param {Record<string, string>} letters */
function renderPieces(letters) {
  ui.pieceLayer.replaceChildren();
  for (const [name, group] of ui.cells) {
    const cell = ui.layout.cells.get(name);
    const letter = Object.hasOwn(letters, name) ? letters[name] : undefined;
    group.classList.toggle("occupied", Boolean(letter));
    group.classList.toggle("chosen", ui.chosen === name);
    if (!letter || cell === undefined) continue;
    const piece = ui.pieces.glyph(letter, { title: ui.pieces.name(letter) });
    piece.classList.add("piece");
    piece.setAttribute("data-piece", letter);
    piece.setAttribute("data-cell", name);
    piece.setAttribute("transform", `translate(${cell.x} ${cell.y})`);
    piece.style.pointerEvents = "none";
    ui.pieceLayer.append(piece);
  }
}

// -- The set-up ------------------------------------------------------------------------------

const mySide = () => shared.private?.side ?? shared.hello?.side ?? null;

/**
 * @param {string} letter
 * @param {string | null} side
 */
const inSideCase = (letter, side) => (side === "red" ? letter.toUpperCase() : letter.toLowerCase());

/**
 * The side's own squares, as placed on the page.
 *
 * @param {string | null} side
 */
const ownCells = (side) => [...ui.layout.cells.values()].filter((cell) => cell.home === side);

/**
 * The side's rows, as the board's row numbers from 0 (y north), north to south.
 *
 * @param {string | null} side
 */
function ownRows(side) {
  const rows = new Set(ownCells(side).map((cell) => ui.layout.grid.get(cell.name)?.[1] ?? 0));
  return [...rows].sort((a, b) => b - a);
}

/**
 * Where a rank goes in the first draft, from the back row forwards: the Flag first, then
 * the pieces that never move, then those that step (strongest first, as the board file
 * lists them), the runners (the Scouts) last, in front.
 *
 * @param {{ letter: string }} rank
 */
function draftPlace(rank) {
  const piece = shared.hello?.game?.pieces?.[rank.letter];
  if (piece?.shape === "flag") return 0;
  if (piece?.moves === "never") return 1;
  return piece?.moves === "any number of squares" ? 3 : 2;
}

/**
 * A first draft: the Flag in the back row among the pieces that never move, the Scouts
 * in front (docs/rules-battle.md §2; a draft to change, nothing more).
 *
 * @param {string} side
 */
function firstDraft(side) {
  const army = [...(shared.hello?.game?.army ?? [])];
  army.sort((a, b) => draftPlace(a) - draftPlace(b)); // stable: the board file's order within each
  const letters = army.flatMap((rank) => Array(rank.count).fill(rank.letter));
  const squares = ownCells(side).sort((a, b) => (side === "red" ? b.y - a.y : a.y - b.y) || a.x - b.x);
  /** @type {Map<string, string>} */
  const draft = new Map();
  squares.forEach((cell, i) => {
    if (i < letters.length) draft.set(cell.name, letters[i]);
  });
  return draft;
}

function draftLetters() {
  const side = mySide();
  /** @type {Record<string, string>} */
  const letters = {};
  for (const [cell, letter] of shared.draft ?? []) letters[cell] = inSideCase(letter, side);
  return letters;
}

// The set-up in the game's notation: the side's rows north to south, a capital letter
// a square, "." an empty one, "~" a lake (docs/rules-battle.md §2).
function setupText() {
  const board = shared.hello?.game?.board;
  const lakes = new Set((board?.lakes ?? []).map((lake) => `${lake.x},${lake.y}`));
  const draft = shared.draft ?? new Map();
  return ownRows(mySide())
    .map((y) => {
      let row = "";
      for (let x = 0; x < (board?.columns ?? 0); x++) {
        const name = ui.layout.byGrid.get(`${x},${y}`);
        row += name ? (draft.get(name) ?? ".") : lakes.has(`${x},${y}`) ? "~" : ".";
      }
      return row;
    })
    .join("/");
}

/** @param {string} name */
function choose(name) {
  const view = shared.private;
  if (!view || !view.setup_state || view.setup_state === "placing") return;
  if (ui.layout.cells.get(name)?.home !== mySide()) return;
  if (ui.chosen === null) {
    ui.chosen = name;
  } else if (shared.draft) {
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
  if (!draft || !shared.private) return;
  const cells = ownCells(mySide()).map((cell) => cell.name);
  const letters = cells.map((cell) => draft.get(cell));
  for (let i = letters.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [letters[i], letters[j]] = [letters[j], letters[i]];
  }
  draft.clear();
  cells.forEach((cell, i) => {
    const letter = letters[i];
    if (letter !== undefined) draft.set(cell, letter);
  });
  ui.chosen = null;
  renderPrivate(shared.private);
}

/**
 * The draft moved onto the squares the nest shows: a piece of the draft on a square the
 * nest asks to fill goes to one the nest asks to empty (a piece stands there that the set-up
 * given has not), so that a set-up placed first on the nest, then given here, needs no
 * piece moved. Which rank stands where is still the player's to arrange.
 */
function fitToNest() {
  const draft = shared.draft;
  if (!draft || !shared.private) return;
  const own = new Set(ownCells(mySide()).map((cell) => cell.name));
  const from = ui.needed.fill.filter((cell) => own.has(cell) && draft.has(cell));
  const to = ui.needed.empty.filter((cell) => own.has(cell) && !draft.has(cell));
  from.slice(0, to.length).forEach((cell, i) => {
    draft.set(to[i], /** @type {string} */ (draft.get(cell)));
    draft.delete(cell);
  });
  ui.chosen = null;
  renderPrivate(shared.private);
}

/** The key a saved draft is kept under on this device: one a side and a board. */
const savedKey = () => `nestref.setup.${shared.hello?.game?.board?.name ?? ""}.${mySide() ?? ""}`;

/** The draft kept on this device (its browser's storage, nowhere else), to give again later. */
function saveDraft() {
  if (!shared.draft) return;
  localStorage.setItem(savedKey(), JSON.stringify([...shared.draft]));
  showStatus("This set-up is saved on this device.", "info");
}

/** The draft saved on this device, back on the screen: give it, and place to match it. */
function loadDraft() {
  const saved = localStorage.getItem(savedKey());
  if (!saved || !shared.private) {
    showStatus("No set-up is saved on this device for this side.", "info");
    return;
  }
  const own = new Set(ownCells(mySide()).map((cell) => cell.name));
  /** @type {[string, string][]} */
  const entries = JSON.parse(saved);
  shared.draft = new Map(entries.filter(([cell]) => own.has(cell)));
  ui.chosen = null;
  renderPrivate(shared.private);
}

const SETUP_WORDS = new Map([
  ["waiting", "Not given yet: arrange your army, then give it."],
  ["placing", "Placing one piece at a time on the nest."],
  ["ready", "Given: the nest asks for the pieces where they go. You may still change it."],
  ["checking", "Checking: lift each piece this screen asks for, then put it back."],
]);

/**
 * What the set-up panel says of the set-up in force: a draft changed since it was given,
 * or a set-up placed one piece at a time, is not the one the referee holds.
 *
 * @param {PrivateMessage} view
 */
function setupWords(view) {
  const state = view.setup_state ?? "";
  const words = SETUP_WORDS.get(state) ?? state;
  if (state !== "ready" && state !== "checking") return words;
  const given = Object.entries(view.cells).map(([cell, letter]) => `${cell}:${letter.toUpperCase()}`);
  if (given.length === 0) {
    return "Your set-up placed one piece at a time is in force, not the draft shown here: give the draft to use it instead.";
  }
  const draft = [...(shared.draft ?? [])].map(([cell, letter]) => `${cell}:${letter}`);
  if (given.sort().join() !== draft.sort().join()) {
    return "The draft shown here is not the set-up you gave, which stays in force: give it to use it instead.";
  }
  return words;
}

/**
 * The key to the rank letters, from the hello's army.
 *
 * @param {import("./game-panel.js").GamePage | undefined} game
 */
function renderKey(game) {
  const list = byId("rank-key");
  list.replaceChildren();
  for (const rank of game?.army ?? []) {
    const item = document.createElement("li");
    const letter = document.createElement("b");
    letter.textContent = rank.letter;
    const strength = rank.strength ? ` (${rank.strength})` : "";
    item.append(letter, ` ${rank.name}${strength} ×${rank.count}`);
    item.dataset.letter = rank.letter;
    list.append(item);
  }
  byId("key-panel").hidden = list.children.length === 0;
}

/** @param {PrivateMessage} view */
function renderPrivate(view) {
  const setting = Boolean(view.setup_state);
  byId("setup-panel").hidden = !setting;
  if (view.setup_state) {
    // A set-up given (from this screen, or another of the same side's) is the draft
    // from then on, until it is changed here.
    const given = JSON.stringify(view.cells);
    if (Object.keys(view.cells).length > 0 && given !== ui.given) {
      shared.draft = new Map(Object.entries(view.cells).map(([cell, letter]) => [cell, letter.toUpperCase()]));
    }
    ui.given = given;
    if (!shared.draft) shared.draft = firstDraft(view.side);
    const state = byId("setup-state");
    state.textContent = setupWords(view);
    const prompt = byId("prompt");
    prompt.hidden = !view.prompt;
    prompt.textContent = view.prompt ? capitalised(view.prompt) : "";
    if (view.setup_state === "placing") state.textContent += ` ${view.placed} of ${view.total} placed.`;
    if (view.setup_state === "checking") state.textContent += ` ${view.placed} of ${view.total} checked.`;
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
  if (shared.private?.hint && game?.to_move === side) words += ` Hint: ${shared.private.hint}.`;
  byId("turn").textContent = words;
}

// -- Status ---------------------------------------------------------------------------------

/**
 * @param {string} words
 * @param {boolean} connected
 */
function setConnection(words, connected) {
  shared.connected = connected;
  const element = byId("connection");
  element.textContent = words;
  element.classList.toggle("ok", connected);
  document.body.classList.toggle("disconnected", !connected);
}

function start() {
  byId("side-form", HTMLFormElement).addEventListener("submit", (event) => {
    event.preventDefault();
    channel.send("side_pin", {
      side: byId("side-choice", HTMLSelectElement).value,
      pin: byId("side-pin", HTMLInputElement).value.trim(),
    });
  });
  byId("shuffle").addEventListener("click", shuffle);
  byId("fit").addEventListener("click", fitToNest);
  byId("save").addEventListener("click", saveDraft);
  byId("saved").addEventListener("click", loadDraft);
  byId("give").addEventListener("click", () => channel.send("setup", { text: setupText() }));
  byId("guide").addEventListener("click", () => channel.send("guide"));
  byId("check").addEventListener("click", () => channel.send("check_setup"));
  byId("withdraw").addEventListener("click", () => channel.send("clear_setup"));
  channel.start();
}

start();
