// The page's history: the games of the record (date, players, result, moves), one of
// them replayed move by move on the nest (First, Back, Next, Last, or the arrow keys,
// Home and End), and its game record to download. Everything comes from the server's
// read-only routes (firmware_host/web/history.py); nothing here changes the game. The
// game replayed is in the address (#game=ID), so it can be shared and reloaded; the id
// is checked here before it is asked for, and again by the server.

const GAME_ID = /^-?[0-9]{1,12}$/;
const LIST_SIGNALS = new Set(["GameStarted", "GameOver", "GameAbandoned"]); // the list changes

const $ = (id) => document.getElementById(id);

const history = {
  games: [], // as the server listed them, newest first
  replay: null, // {id, moves, positions, ...} of the game shown
  ply: 0, // how many of its moves are made on the nest shown
  loading: null, // the id asked for, until it comes
};
window.nestref.history = history; // for the tests and curious users

const NO_GAMES = "No games in the record yet.";

function say(words) {
  $("history-status").textContent = words;
}

async function fetchJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error((await response.text()).trim() || `${response.status} ${response.statusText}`);
  return response.json();
}

function players(entry) {
  const red = entry.players?.red ?? "?";
  const blue = entry.players?.blue ?? "?";
  return `${red} - ${blue}`; // as nestref games shows them
}

async function loadList() {
  try {
    const data = await fetchJson("/history/games");
    history.games = Array.isArray(data.games) ? data.games : [];
  } catch (error) {
    say(`The list of games cannot be read: ${error.message}`);
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
      cell.textContent = text; // the record's words, never markup
      if (kind) cell.className = kind;
      row.append(cell);
    }
    const action = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Replay";
    button.title = `Replay game ${entry.number} of ${entry.date} on the nest`;
    button.addEventListener("click", () => openGame(String(entry.id)));
    action.append(button);
    row.append(action);
    return row;
  });
  $("history-list").tBodies[0].replaceChildren(...rows);
  // Only its own words: a refusal of the address's game, said before the list came, stays.
  if (!history.replay && !rows.length) say(NO_GAMES);
  else if ($("history-status").textContent === NO_GAMES) say("");
}

async function openGame(idText) {
  if (!GAME_ID.test(idText)) {
    say(`"${idText.slice(0, 20)}" is not a game's id: the list below has them.`);
    return;
  }
  history.loading = idText;
  let game;
  try {
    game = await fetchJson(`/history/games/${idText}`);
  } catch (error) {
    if (history.loading === idText) say(`Game ${idText} cannot be replayed: ${error.message}`);
    return;
  }
  if (history.loading !== idText) return; // another was asked for since
  history.loading = null;
  if (!Array.isArray(game.moves) || !Array.isArray(game.positions) || game.positions.length !== game.moves.length + 1) {
    say(`Game ${idText}: the server sent something that is not a game.`);
    return;
  }
  history.replay = game;
  history.ply = game.moves.length;
  if (location.hash !== `#game=${idText}`) window.history.replaceState(null, "", `#game=${idText}`);
  const download = $("history-download");
  download.href = `/history/games/${idText}/record`;
  download.setAttribute("download", `nestref-game-${idText}.txt`);
  $("history-title").textContent =
    `Game ${game.number}, ${game.date}: ${players(game)}, ${game.result === "*" ? "not finished" : game.result}`;
  $("history-replay").hidden = false;
  document.body.classList.add("replaying");
  say("");
  renderList();
  show();
}

function closeGame() {
  history.replay = null;
  history.loading = null;
  $("history-replay").hidden = true;
  document.body.classList.remove("replaying");
  if (location.hash.startsWith("#game=")) window.history.replaceState(null, "", location.pathname + location.search);
  window.nestref.showCells(null);
  renderList();
}

function show() {
  const game = history.replay;
  if (!game) return;
  window.nestref.showCells(game.positions[history.ply]);
  const count = game.moves.length;
  const last = history.ply > 0 ? `: ${game.moves[history.ply - 1]}` : ": the start";
  $("history-ply").textContent = `move ${history.ply} of ${count}${last}`;
  $("history-first").disabled = $("history-prev").disabled = history.ply === 0;
  $("history-next").disabled = $("history-last").disabled = history.ply === count;
}

function step(to) {
  if (!history.replay) return;
  history.ply = Math.max(0, Math.min(history.replay.moves.length, to));
  show();
}

function onKey(event) {
  if (!history.replay || event.altKey || event.ctrlKey || event.metaKey) return;
  // Keys typed into a field or on the nest's cells are theirs.
  if (event.target.closest?.("input, select, textarea, #nest, dialog")) return;
  const to = {
    ArrowLeft: history.ply - 1,
    ArrowRight: history.ply + 1,
    Home: 0,
    End: history.replay.moves.length,
  }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  step(to);
}

function openFromAddress() {
  const match = /^#game=(.*)$/.exec(location.hash);
  if (match) openGame(decodeURIComponent(match[1]));
}

$("history-refresh").addEventListener("click", loadList);
$("history-first").addEventListener("click", () => step(0));
$("history-prev").addEventListener("click", () => step(history.ply - 1));
$("history-next").addEventListener("click", () => step(history.ply + 1));
$("history-last").addEventListener("click", () => step(Infinity));
$("history-close").addEventListener("click", closeGame);
document.addEventListener("keydown", onKey);
window.addEventListener("hashchange", openFromAddress);
document.addEventListener("nestref:hello", loadList);
document.addEventListener("nestref:signal", (event) => {
  if (LIST_SIGNALS.has(event.detail.kind)) loadList();
});

if (window.nestref.hello) loadList();
openFromAddress();
