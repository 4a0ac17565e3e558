// @ts-check
// Live boards: every game on the MQTT broker at once, as small boards. On its own page
// (live.html, `nestref live`) it starts at once; on the spectator page (index.html) it
// starts when the server's hello says it has live boards, as a panel of its own.
//
// The server sends how to draw each game (its board's cells, its pieces) once, then
// every board each time one changes, each read strictly by the server first. Even so
// nothing in a board is trusted here: every text goes in as text (textContent,
// setAttribute), never as markup, and a board whose game is not known is not drawn.

import { BoardLayout, drawBoard } from "./board.js";
import { byId, svgElement } from "./dom.js";
import { Pieces } from "./pieces.js";
import { Channel } from "./socket.js";

const R = 40; // a cell's radius, as the main page's

/**
 * How to draw one game's boards (`live_hello`'s `games`, by name).
 *
 * @typedef {object} LiveGame
 * @property {string} title
 * @property {import("./board.js").BoardData} board
 * @property {Record<string, import("./pieces.js").PieceInfo>} pieces
 */

/**
 * One board on the broker, as the server read it.
 *
 * @typedef {object} LiveBoard
 * @property {string} board its id
 * @property {string} name
 * @property {string} game
 * @property {number} number
 * @property {Record<string, string>} [pieces] letters by cell
 * @property {string | null} [to_move]
 * @property {string | null} [last_move]
 * @property {number} [moves]
 * @property {[number, number]} score
 * @property {[string, string] | null} [clock]
 * @property {string | null} [result]
 * @property {boolean} online
 */

/**
 * A game's drawing, made once from its `LiveGame`.
 *
 * @typedef {{ game: LiveGame, layout: BoardLayout, pieces: Pieces }} Drawing
 */

// What the tests and curious users can read: the last messages.
const live = {
  connected: false,
  /** @type {Record<string, LiveGame>} */
  games: {},
  /** @type {LiveBoard[]} */
  boards: [],
  /** @type {string[]} */
  ignored: [],
};
Object.assign(window, { nestrefLive: live });

/** @type {Map<string, Drawing>} */
const drawings = new Map();
/** @type {HTMLElement | null} */
let container = null;

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} name
 * @param {string} className
 * @returns {HTMLElementTagNameMap[K]}
 */
function element(name, className) {
  const made = document.createElement(name);
  made.className = className;
  return made;
}

/**
 * @param {Drawing} drawing
 * @param {LiveBoard} board
 */
function drawBoardOf({ game, layout, pieces }, board) {
  const picture = svgElement("svg", { class: "live-nest", role: "img" });
  const { cells } = drawBoard(picture, layout, { margin: R * 1.1 });
  const letters = board.pieces ?? {};
  let count = 0;
  for (const [name, group] of cells) {
    const cell = layout.cells.get(name);
    const letter = Object.hasOwn(letters, name) ? letters[name] : undefined;
    if (cell === undefined || letter === undefined || pieces.info(letter) === null) continue;
    const piece = pieces.glyph(letter);
    piece.setAttribute("transform", `translate(${cell.x.toFixed(1)} ${cell.y.toFixed(1)})`);
    piece.setAttribute("data-piece", letter);
    group.append(piece);
    count += 1;
  }
  picture.setAttribute("aria-label", `${game.title}: ${count} pieces on the board`);
  return picture;
}

/** @param {LiveBoard} board */
function facts(board) {
  const words = [];
  if (board.result) words.push(board.result === "draw" ? "a draw" : `${board.result} won`);
  else if (board.to_move) words.push(`${board.to_move} to move`);
  if (board.last_move) words.push(`move ${board.moves}: ${board.last_move}`);
  words.push(`set ${board.score[0]}–${board.score[1]}`);
  if (board.clock) words.push(`red ${board.clock[0]} · blue ${board.clock[1]}`);
  return words;
}

/** @param {LiveBoard} board */
function drawCard(board) {
  const drawing = drawings.get(board.game);
  if (!drawing) return null;
  const card = element("article", "live-board");
  card.dataset.board = board.board;
  card.classList.toggle("offline", !board.online);
  const head = element("h3", "live-name");
  head.textContent = board.name;
  if (!board.online) {
    const badge = element("span", "live-offline");
    badge.textContent = "offline";
    head.append(" ", badge);
  }
  const gameLine = element("p", "live-game muted");
  gameLine.textContent = `${drawing.game.title}, game ${board.number}`;
  const line = element("p", "live-facts");
  const [first, ...rest] = facts(board);
  const turn = element("span", "live-turn");
  turn.textContent = first ?? "";
  line.append(turn);
  for (const word of rest) {
    const part = element("span", word.startsWith("move ") ? "live-last-move" : "live-fact");
    part.textContent = word;
    line.append(" · ", part);
  }
  card.append(head, drawBoardOf(drawing, board), gameLine, line);
  return card;
}

function render() {
  if (!container) return;
  const cards = live.boards.map(drawCard).filter((card) => card !== null);
  const note = element("p", "live-none muted");
  note.textContent = live.connected ? "No game is published on the broker yet." : "Connecting…";
  container.replaceChildren(...(cards.length ? cards : [note]));
}

const channel = new Channel({
  path: "/live/ws",
  handlers: {
    /** @param {{ games?: unknown }} message */
    live_hello(message) {
      const games = message.games && typeof message.games === "object" ? message.games : {};
      live.games = /** @type {Record<string, LiveGame>} */ (games);
      drawings.clear();
      for (const [name, game] of Object.entries(live.games)) {
        drawings.set(name, { game, layout: new BoardLayout(game.board, R), pieces: new Pieces(game.pieces, R) });
      }
      render();
    },
    /** @param {{ boards?: unknown }} message */
    live_boards(message) {
      live.boards = Array.isArray(message.boards) ? message.boards : [];
      render();
    },
  },
  onOpen() {
    live.connected = true;
    render();
  },
  onClose() {
    live.connected = false;
    render();
  },
});
live.ignored = channel.ignored;

function start() {
  container = document.getElementById("live-boards");
  if (!container) return;
  if (document.body.dataset.page === "live") {
    channel.start();
    return;
  }
  // The spectator page: a panel, once its server says there are live boards.
  let started = false;
  document.addEventListener("nestref:hello", (event) => {
    const hello = event instanceof CustomEvent ? event.detail : null;
    if (!hello?.live_boards || started) return;
    started = true;
    byId("live-panel").hidden = false;
    channel.start();
  });
}

start();
