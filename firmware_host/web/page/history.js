// @ts-check
// The page's history: the games of the record (date, players, result, moves), one of
// them replayed move by move on the nest (First, Back, Next, Last, or the arrow keys,
// Home and End), and its game record to download. Everything comes from the server's
// read-only routes (firmware_host/web/history.py); nothing here changes the game. The
// game replayed is in the address (#game=ID), so it can be shared and reloaded; the id
// is checked here before it is asked for, and again by the server.

import { shared } from "./app.js";
import { byId } from "./dom.js";

const GAME_ID = /^-?[0-9]{1,12}$/;
const LIST_SIGNALS = new Set(["GameStarted", "GameOver", "GameAbandoned"]); // the list changes
const NO_GAMES = "No games in the record yet.";

/**
 * A game of the record as the server lists it (`/history/games`).
 *
 * @typedef {object} GameEntry
 * @property {number} id
 * @property {number} number
 * @property {string} date
 * @property {{ red?: string, blue?: string }} [players]
 * @property {string} result
 * @property {number} moves
 */

/**
 * A game to replay (`/history/games/ID`): its moves, and the position before the first
 * and after each, as letters by cell.
 *
 * @typedef {GameEntry & { moves: string[], positions: Record<string, string>[] }} ReplayedGame
 */

const history = {
  /** @type {GameEntry[]} as the server listed them, newest first */
  games: [],
  /** @type {ReplayedGame | null} the game shown */
  replay: null,
  ply: 0, // how many of its moves are made on the nest shown
  /** @type {string | null} the id asked for, until it comes */
  loading: null,
};
shared.history = history; // for the tests and curious users

/** @param {string} id */
const button = (id) => byId(id, HTMLButtonElement);

/** @param {string} words */
function say(words) {
  byId("history-status").textContent = words;
}

/**
 * @param {string} url
 * @returns {Promise<any>}
 */
async function fetchJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error((await response.text()).trim() || `${response.status} ${response.statusText}`);
  return response.json();
}

/** @param {{ players?: { red?: string, blue?: string } }} entry */
function players(entry) {
  const red = entry.players?.red ?? "?";
  const blue = entry.players?.blue ?? "?";
  return `${red} - ${blue}`; // as nestref games shows them
}

/** @param {unknown} error */
const reason = (error) => (error instanceof Error ? error.message : String(error));

async function loadList() {
  try {
    const data = await fetchJson("/history/games");
    history.games = Array.isArray(data?.games) ? data.games : [];
  } catch (error) {
    say(`The list of games cannot be read: ${reason(error)}`);
    return;
  }
  renderList();
}

function renderList() {
  const rows = history.games.map((entry) => {
    const row = document.createElement("tr");
    row.dataset.game = String(entry.id);
    row.classList.toggle("shown", history.replay?.id === entry.id);
    for (const [text, kind] of [
      [entry.date, ""],
      [players(entry), ""],
      [entry.result, ""],
      [String(entry.moves), "count"],
    ]) {
      const cell = document.createElement("td");
      cell.textContent = text ?? ""; // the record's words, never markup
      if (kind) cell.className = kind;
      row.append(cell);
    }
    const action = document.createElement("td");
    const replay = document.createElement("button");
    replay.type = "button";
    replay.textContent = "Replay";
    replay.title = `Replay game ${entry.number} of ${entry.date} on the nest`;
    replay.addEventListener("click", () => openGame(String(entry.id)));
    action.append(replay);
    row.append(action);
    return row;
  });
  byId("history-list", HTMLTableElement).tBodies[0]?.replaceChildren(...rows);
  // Only its own words: a refusal of the address's game, said before the list came, stays.
  if (!history.replay && !rows.length) say(NO_GAMES);
  else if (byId("history-status").textContent === NO_GAMES) say("");
}

/** @param {string} idText */
async function openGame(idText) {
  if (!GAME_ID.test(idText)) {
    say(`"${idText.slice(0, 20)}" is not a game's id: the list below has them.`);
    return;
  }
  history.loading = idText;
  /** @type {ReplayedGame} */
  let game;
  try {
    game = await fetchJson(`/history/games/${idText}`);
  } catch (error) {
    if (history.loading === idText) say(`Game ${idText} cannot be replayed: ${reason(error)}`);
    return;
  }
  if (history.loading !== idText) return; // another was asked for since
  history.loading = null;
  if (!Array.isArray(game?.moves) || !Array.isArray(game.positions) || game.positions.length !== game.moves.length + 1) {
    say(`Game ${idText}: the server sent something that is not a game.`);
    return;
  }
  history.replay = game;
  history.ply = game.moves.length;
  if (location.hash !== `#game=${idText}`) window.history.replaceState(null, "", `#game=${idText}`);
  const download = byId("history-download", HTMLAnchorElement);
  download.href = `/history/games/${idText}/record`;
  download.setAttribute("download", `nestref-game-${idText}.txt`);
  byId("history-title").textContent =
    `Game ${game.number}, ${game.date}: ${players(game)}, ${game.result === "*" ? "not finished" : game.result}`;
  byId("history-replay").hidden = false;
  document.body.classList.add("replaying");
  say("");
  renderList();
  show();
}

function closeGame() {
  history.replay = null;
  history.loading = null;
  byId("history-replay").hidden = true;
  document.body.classList.remove("replaying");
  if (location.hash.startsWith("#game=")) window.history.replaceState(null, "", location.pathname + location.search);
  shared.showCells(null);
  renderList();
}

function show() {
  const game = history.replay;
  if (!game) return;
  shared.showCells(game.positions[history.ply] ?? {});
  const count = game.moves.length;
  const last = history.ply > 0 ? `: ${game.moves[history.ply - 1]}` : ": the start";
  byId("history-ply").textContent = `move ${history.ply} of ${count}${last}`;
  button("history-first").disabled = button("history-prev").disabled = history.ply === 0;
  button("history-next").disabled = button("history-last").disabled = history.ply === count;
}

/** @param {number} to */
function step(to) {
  if (!history.replay) return;
  history.ply = Math.max(0, Math.min(history.replay.moves.length, to));
  show();
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (!history.replay || event.altKey || event.ctrlKey || event.metaKey) return;
  // Keys typed into a field or on the nest's cells are theirs.
  if (event.target instanceof Element && event.target.closest("input, select, textarea, #nest, dialog")) return;
  const to = new Map([
    ["ArrowLeft", history.ply - 1],
    ["ArrowRight", history.ply + 1],
    ["Home", 0],
    ["End", history.replay.moves.length],
  ]).get(event.key);
  if (to === undefined) return;
  event.preventDefault();
  step(to);
}

function openFromAddress() {
  const match = /^#game=(.*)$/.exec(location.hash);
  if (match) openGame(decodeURIComponent(match[1] ?? ""));
}

button("history-refresh").addEventListener("click", loadList);
button("history-first").addEventListener("click", () => step(0));
button("history-prev").addEventListener("click", () => step(history.ply - 1));
button("history-next").addEventListener("click", () => step(history.ply + 1));
button("history-last").addEventListener("click", () => step(Infinity));
button("history-close").addEventListener("click", closeGame);
document.addEventListener("keydown", onKey);
window.addEventListener("hashchange", openFromAddress);
document.addEventListener("nestref:hello", loadList);
document.addEventListener("nestref:signal", (event) => {
  if (event instanceof CustomEvent && LIST_SIGNALS.has(event.detail?.kind)) loadList();
});

if (shared.hello) loadList();
openFromAddress();
