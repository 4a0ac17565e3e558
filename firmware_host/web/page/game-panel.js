// @ts-check
// The simulator's and the spectators' page's words about the game: its number, whose
// turn, the set's score, the clock, the moves numbered as players count them, who plays
// each side, what the players do next, and how to play the game (its rules, its pieces
// drawn as on the nest, its homebases).

import { byId } from "./dom.js";

const VIEW_WORDS = new Map([
  ["starting", "starting"],
  ["setup", "setting up"],
  ["playing", "playing"],
  ["correcting", "putting the nest right"],
  ["question", "which move? (a question)"],
  ["over", "game over"],
]);

/**
 * The game as the server's `game` message says it (docs/simulator.md): as recorded, its
 * position as everybody may see it.
 *
 * @typedef {object} GameMessage
 * @property {number | null} [number]
 * @property {string | null} [to_move]
 * @property {string[]} [moves]
 * @property {string[]} [waiting] moves the referee took that are not on disk yet
 * @property {[number, number]} [score]
 * @property {string} [position]
 * @property {string} [view]
 * @property {Record<string, string>} [players] by side: `human` or `computer`
 * @property {number} [level]
 * @property {boolean} [thinking]
 * @property {string | null} [computer_move]
 * @property {[string, string] | null} [clock]
 * @property {Record<string, import("./device.js").ButtonNow>} [buttons] what each button means now
 */

/**
 * The game as `for_page()` says it, in the hello.
 *
 * @typedef {object} GamePage
 * @property {string} [name]
 * @property {string} [title]
 * @property {import("./board.js").BoardData} [board]
 * @property {Record<string, import("./pieces.js").PieceInfo>} [pieces]
 * @property {string[]} [rules]
 * @property {{ svg: string, caption: string }[][]} [rule_pictures] a picture or two of each paragraph's moves
 * @property {{ letter: string, name: string, count: number, strength: number }[]} [army]
 */

/**
 * @param {string} id
 */
const select = (id) => byId(id, HTMLSelectElement);

/** @param {GameMessage} game */
function renderPlayers(game) {
  // What the daemon says, unless the user is choosing right now.
  for (const side of ["red", "blue"]) {
    const chooser = select(`player-${side}`);
    const player = game.players?.[side];
    if (player && document.activeElement !== chooser) chooser.value = player;
  }
  const level = select("computer-level");
  if (game.level && document.activeElement !== level) level.value = String(game.level);
  let words = "–";
  if (game.computer_move) words = `plays ${game.computer_move}: make it on the nest`;
  else if (game.thinking) words = "thinking…";
  else if (Object.values(game.players ?? {}).includes("computer")) words = `level ${game.level}, waiting`;
  byId("computer-state").textContent = words;
}

/**
 * The game panel as `game` says.
 *
 * @param {GameMessage} game
 */
export function renderGame(game) {
  byId("game-number").textContent = game.number != null ? String(game.number) : "–";
  renderPlayers(game);
  const toMove = byId("to-move");
  toMove.textContent = game.to_move ?? "nobody";
  toMove.className = game.to_move ? `side-${game.to_move}` : "";
  const [red, blue] = game.score ?? [0, 0];
  byId("score").textContent = `red ${red} – ${blue} blue`;
  // A game played with a clock: each side's time, as the OLED shows it.
  byId("clock-fact").hidden = !game.clock;
  byId("clock").textContent = game.clock ? `red ${game.clock[0]} – ${game.clock[1]} blue` : "";
  byId("game-view").textContent = VIEW_WORDS.get(game.view ?? "") ?? game.view ?? "–";
  byId("position-text").textContent = game.position ?? "";
  // Moves the referee took that are not on disk yet: not played until they are.
  const waiting = game.waiting ?? [];
  byId("waiting").hidden = waiting.length === 0;
  byId("waiting").textContent = waiting.length ? `waiting to be saved: ${waiting.join(" ")}` : "";
  // Numbered by moves, as players count them: the starter's and the reply on one line.
  const list = byId("moves");
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

/** @param {string} words */
export const capitalised = (words) => words.charAt(0).toUpperCase() + words.slice(1);

/**
 * What the players do next, in a sentence: the first game's first move, what the OLED
 * asks, and after a result how the next game starts.
 *
 * @param {GameMessage} game
 * @param {{ inSimulator: boolean, ownScreens: boolean }} page the simulator's (or the
 *   spectators'), and whether the players have their own screens
 */
export function nextStep(game, { inSimulator, ownScreens }) {
  const side = game.to_move;
  switch (game.view) {
    case "setup":
      if (ownScreens) {
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

/**
 * The game's rules, as the server has them from the game; its pieces drawn as on the
 * nest; its homebases, from the board.
 *
 * @param {GamePage | null | undefined} game
 * @param {import("./pieces.js").Pieces} pieces
 */
export function buildHowToPlay(game, pieces) {
  byId("how-to-play-title").textContent = game?.title ?? "";
  byId("how-to-play-pieces").replaceChildren(
    ...pieces.letters().map((letter) => {
      const item = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = pieces.name(letter);
      item.append(pieces.icon(letter), name);
      return item;
    }),
  );
  /** @type {Map<string, string[]>} */
  const homes = new Map();
  // (A square board's set-up rows are whole rows: the rules say which.)
  const square = game?.board?.shape === "square";
  for (const cell of square ? [] : (game?.board?.cells ?? [])) {
    if (cell.home) homes.set(cell.home, [...(homes.get(cell.home) ?? []), cell.name]);
  }
  const sides = [...homes].map(([side, cells]) => `${side}'s ${cells.join(" ")}`);
  byId("how-to-play-homes").textContent = sides.length
    ? `Homebases, shaded on the nest in their side's colour: ${sides.join("; ")}. Red plays up the page, blue down.`
    : "";
  byId("how-to-play-rules").replaceChildren(
    ...(game?.rules ?? []).map((words, paragraph) => {
      const item = document.createElement("li");
      item.textContent = words;
      const pictures = game?.rule_pictures?.[paragraph] ?? [];
      if (pictures.length) {
        const row = document.createElement("div");
        row.className = "how-pictures";
        for (const { svg, caption } of pictures) {
          // An <img> of the server's SVG: drawn, never parsed into the page.
          const figure = document.createElement("figure");
          const image = document.createElement("img");
          image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
          image.alt = caption;
          const words = document.createElement("figcaption");
          words.textContent = caption;
          figure.append(image, words);
          row.append(figure);
        }
        item.append(row);
      }
      return item;
    }),
  );
}

/**
 * The lineups to choose from for "Set up lineup", keeping the one chosen if it still is one.
 *
 * @param {string[]} names
 */
export function buildLineups(names) {
  const chooser = select("setup-lineup");
  const chosen = chooser.value;
  chooser.replaceChildren(new Option("the one expected", ""));
  for (const name of names) chooser.append(new Option(name, name));
  chooser.value = names.includes(chosen) ? chosen : "";
}

/**
 * The computer's levels to choose from.
 *
 * @param {{ number: number, name: string }[]} levels
 */
export function buildLevels(levels) {
  const chooser = select("computer-level");
  const chosen = chooser.value;
  chooser.replaceChildren(...levels.map((level) => new Option(`${level.number} ${level.name}`, String(level.number))));
  if (chosen) chooser.value = chosen;
}
