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
 * @property {string | null} [setup_state] `waiting`, `placing`, `ready`; none once the game is on
 * @property {string | null} [prompt]
 * @property {number} [placed]
 * @property {number} [total]
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
 * A first draft: the army in the board file's order, from the back row forwards.
 *
 * @param {string} side
 */
function firstDraft(side) {
  const army = shared.hello?.game?.army ?? [];
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

const SETUP_WORDS = new Map([
  ["waiting", "Not given yet: arrange your army, then give it."],
  ["placing", "Placing one piece at a time on the nest."],
  ["ready", "Given: the nest asks for the pieces where they go. You may still change it."],
]);

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
    state.textContent = SETUP_WORDS.get(view.setup_state) ?? view.setup_state;
    const prompt = byId("prompt");
    prompt.hidden = !view.prompt;
    prompt.textContent = view.prompt ? capitalised(view.prompt) : "";
    if (view.setup_state === "placing") state.textContent += ` ${view.placed} of ${view.total} placed.`;
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
  byId("give").addEventListener("click", () => channel.send("setup", { text: setupText() }));
  byId("guide").addEventListener("click", () => channel.send("guide"));
  byId("withdraw").addEventListener("click", () => channel.send("clear_setup"));
  channel.start();
}

start();
