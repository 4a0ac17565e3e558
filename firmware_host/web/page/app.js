// @ts-check
// The simulator's page (and, read-only, the real nest's spectator page). It draws what
// the daemon's simulated devices show (the OLED, the lights) and the table the server
// keeps (which piece stands where), and turns clicks and drags into physical acts on that
// table (nest.js). It never applies a move itself: whatever the referee makes of an act
// comes back from the server. The protocol is docs/simulator.md; this module holds the
// page's state, its one socket (socket.js) and what each message changes.

import { DeviceView } from "./device.js";
import { byId, showStatus } from "./dom.js";
import { buildHowToPlay, buildLevels, buildLineups, nextStep, renderGame } from "./game-panel.js";
import { NestView, R } from "./nest.js";
import { Pieces } from "./pieces.js";
import { Channel } from "./socket.js";
import { Trays } from "./trays.js";

const SIGNALS_KEPT = 300;
const MAX_LOG_BYTES = 1024 * 1024; // the server refuses bigger logs (sim/simulator.py MAX_LOG_BYTES)
const TOKEN_KEY = "nestref.session";

/**
 * The server's `hello` (docs/simulator.md).
 *
 * @typedef {object} HelloMessage
 * @property {"sim" | "spectator"} mode
 * @property {boolean} [live_boards]
 * @property {boolean} [can_act]
 * @property {boolean} [pin_required]
 * @property {import("./game-panel.js").GamePage} [game]
 * @property {boolean} [own_screens]
 * @property {import("./device.js").ButtonHelp[]} [buttons]
 * @property {string[]} [lineups]
 * @property {{ number: number, name: string }[]} [levels]
 * @property {Record<string, [number | null, number][]>} [tunes]
 */

/**
 * The server's `table`: the pieces on the nest by cell, in the hand and in the box.
 *
 * @typedef {object} TableMessage
 * @property {Record<string, string>} [cells]
 * @property {import("./trays.js").TrayPiece[]} [hand]
 * @property {import("./trays.js").TrayPiece[]} [box]
 * @property {number | string | null} [next] the hand's piece a player would put down
 */

/**
 * @typedef {{ png: string, headline?: string, lines?: string[], footer?: string, alert?: boolean }} OledMessage
 * @typedef {{ status?: Record<string, boolean>, cells?: Record<string, boolean> }} LightsMessage
 * @typedef {{ loaded: boolean, events: number, done: number, playing: boolean, speed: number }} ReplayMessage
 * @typedef {{ message: string, id?: number | null }} ErrorMessage
 */

/**
 * What the tests, the page's other modules and curious users read (`window.nestref`):
 * the last message of each kind, and the page's few ways in.
 *
 * @typedef {object} Shared
 * @property {boolean} connected
 * @property {HelloMessage | null} hello
 * @property {TableMessage | null} table
 * @property {import("./game-panel.js").GameMessage | null} game
 * @property {ErrorMessage | null} lastError
 * @property {string | null} lastRecording
 * @property {OledMessage | null} oled
 * @property {LightsMessage | null} lights
 * @property {ReplayMessage | null} replay
 * @property {Record<string, string> | null} shownCells a past game's position shown instead of the table's
 * @property {(cells: Record<string, string> | null) => void} showCells history.js replays a past game on
 *   the nest: these cells ({cell: letter}) instead of the table's, until it gives null (the live nest again)
 * @property {(type: string, fields?: Record<string, unknown>) => number | null} send a request to the
 *   server (remote.js); its id, null if not connected
 * @property {string[]} ignored why each of the last messages left out was (socket.js)
 * @property {unknown} [remote] remote.js's last `remote` message
 * @property {unknown} [history] history.js's state
 */

// The page's own state: what the server does not need to know.
const ui = {
  canAct: false,
  greeted: false, // this connection's first hello has come
  /** @type {number | null} */
  pinId: null,
  /** @type {number | null} */
  resumeId: null,
  /** @type {boolean | null} unknown until the server says */
  recording: null,
  /** @type {string | null} */
  downloadUrl: null,
};

/** @type {import("./socket.js").Handlers} */
const handlers = {
  /** @param {HelloMessage} message */
  hello(message) {
    shared.hello = message;
    // A new connection is sent the recent signals again; a second hello (the PIN
    // taken) is not.
    if (!ui.greeted) byId("signals").replaceChildren();
    ui.greeted = true;
    ui.pinId = ui.resumeId = null;
    const spectator = message.mode === "spectator";
    ui.canAct = !spectator && Boolean(message.can_act);
    document.body.classList.toggle("spectator", spectator);
    byId("mode-label").textContent = spectator ? "live" : "simulator";
    document.title = spectator ? "nestref: live game" : "nestref simulator";
    const pieces = new Pieces(message.game?.pieces, R);
    trays.pieces = pieces;
    nest.build(message.game?.board, pieces);
    if (shared.table || shared.shownCells) nest.showPieces(shared.shownCells ?? shared.table?.cells ?? {});
    if (shared.lights) nest.showLights(shared.lights.cells ?? {});
    buildHowToPlay(message.game, pieces);
    device.buildButtons(message.buttons ?? []);
    buildLineups(message.lineups ?? []);
    buildLevels(message.levels ?? []);
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (!spectator && !ui.canAct && message.pin_required) {
      if (token) ui.resumeId = send("resume", { token });
      else showPinForm();
    } else {
      byId("pin-form").hidden = true;
    }
    updateControls();
  },

  /** @param {TableMessage} message */
  table(message) {
    shared.table = message;
    // The trays are redrawn: a keyboard user's focus follows the piece it was on
    // (from the box into the hand), or stays in its tray.
    const active = document.activeElement;
    const focused = active instanceof HTMLElement ? active.closest(".tray-pieces [data-piece-id]") : null;
    const tray = focused?.parentElement;
    nest.showPieces(shared.shownCells ?? message.cells ?? {}); // a past game replayed stays shown
    trays.show(message.hand ?? [], message.box ?? [], message.next ?? null);
    if (focused instanceof HTMLElement) {
      const same = document.querySelector(
        `.tray-pieces [data-piece-id="${CSS.escape(focused.dataset.pieceId ?? "")}"]`,
      );
      const target = same ?? tray?.querySelector("[data-piece-id]");
      if (target instanceof HTMLElement) target.focus();
    }
    updateControls();
  },

  /** @param {OledMessage} message */
  oled(message) {
    shared.oled = message;
    const image = byId("oled", HTMLImageElement);
    image.src = message.png;
    image.alt = [message.headline, ...(message.lines ?? []), message.footer].filter(Boolean).join(" / ");
    byId("bezel").classList.toggle("alert", Boolean(message.alert));
  },

  /** @param {LightsMessage} message */
  lights(message) {
    shared.lights = message;
    device.showLights(message.status ?? {});
    nest.showLights(message.cells ?? {});
  },

  /** @param {import("./game-panel.js").GameMessage} message */
  game(message) {
    shared.game = message;
    renderGame(message);
    byId("next-step").textContent = nextStep(message, {
      inSimulator: shared.hello?.mode !== "spectator",
      ownScreens: Boolean(shared.hello?.own_screens),
    });
    device.updateHeld();
  },

  /** @param {{ kind: string, text: string }} message */
  signal(message) {
    const list = byId("signals");
    const atBottom = isScrolledDown(list);
    const item = document.createElement("li");
    item.textContent = message.text;
    item.title = message.kind;
    item.dataset.kind = message.kind;
    list.append(item);
    while (list.children.length > SIGNALS_KEPT) list.firstElementChild?.remove();
    if (atBottom) list.scrollTop = list.scrollHeight;
  },

  /** @param {ReplayMessage} message */
  replay(message) {
    shared.replay = message;
    const progress = byId("replay-progress", HTMLProgressElement);
    progress.max = Math.max(1, message.events);
    progress.value = message.done;
    let words = "no log loaded";
    if (message.loaded) {
      words = `${message.done} / ${message.events} events`;
      if (message.playing) words += `, playing at ${message.speed}×`;
      else if (message.done >= message.events) words += ", all played";
      else words += ", paused";
    }
    byId("replay-status").textContent = words;
    updateControls();
  },

  /** @param {{ on: boolean, text?: string }} message */
  recording(message) {
    ui.recording = Boolean(message.on);
    const status = byId("record-status");
    if (message.on) status.textContent = "recording…";
    else if (status.textContent === "recording…") status.textContent = "";
    if (!message.on && typeof message.text === "string") {
      shared.lastRecording = message.text;
      if (ui.downloadUrl) URL.revokeObjectURL(ui.downloadUrl);
      ui.downloadUrl = URL.createObjectURL(new Blob([message.text], { type: "text/plain" }));
      const link = byId("record-download", HTMLAnchorElement);
      link.href = ui.downloadUrl;
      link.hidden = false;
      const events = message.text.split("\n").filter((line) => /^\s*\d/.test(line)).length;
      status.textContent = `${events} events recorded`;
    }
    updateControls();
  },

  /** @param {{ token: string }} message */
  session(message) {
    sessionStorage.setItem(TOKEN_KEY, message.token);
    grantActing();
    showStatus("Unlocked: you may play.", "info");
  },

  /** @param {{ id: number | null }} message */
  ack(message) {
    if (message.id !== null && message.id === ui.resumeId) grantActing();
  },

  /** @param {ErrorMessage} message */
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
      byId("pin", HTMLInputElement).select();
    }
  },

  // Handled by the page's other modules, from the event each message is dispatched as.
  remote() {}, // remote.js
  cue() {}, // sound.js
};

const channel = new Channel({
  path: "/ws",
  handlers,
  events: "nestref",
  onOpen() {
    shared.connected = true;
    setConnection("connected", true);
  },
  onClose(delay) {
    shared.connected = false;
    ui.greeted = false;
    nest.cancelPress();
    setConnection(`disconnected: trying again in ${Math.ceil(delay / 1000)} s`, false);
  },
  onIgnored(reason) {
    showStatus(`The server sent a message the page does not read (${reason}).`, "error");
  },
});

/**
 * A request to the server; its id, or null (and the page says so) if not connected.
 *
 * @param {string} type
 * @param {Record<string, unknown>} [fields]
 */
function send(type, fields = {}) {
  const id = channel.send(type, fields);
  if (id === null) showStatus("Not connected to the simulator.", "error");
  return id;
}

/** @type {Shared} */
export const shared = {
  connected: false,
  hello: null,
  table: null,
  game: null,
  lastError: null,
  lastRecording: null,
  oled: null,
  lights: null,
  replay: null,
  shownCells: null,
  showCells(cells) {
    shared.shownCells = cells;
    nest.showPieces(cells ?? shared.table?.cells ?? {});
  },
  send,
  ignored: channel.ignored,
};
Object.assign(window, { nestref: shared });

const nest = new NestView(byId("nest", SVGSVGElement), {
  send,
  canAct: () => ui.canAct,
  tableCells: () => shared.table?.cells ?? {},
  chosenPiece: () => trays.chosen,
  knockModeChanged: (on) => byId("knock-mode").setAttribute("aria-pressed", String(on)),
});
const trays = new Trays(send);
const device = new DeviceView({
  send,
  isActive: () => ui.canAct && shared.connected,
  game: () => shared.game,
});

function grantActing() {
  ui.canAct = shared.hello?.mode === "sim";
  ui.pinId = ui.resumeId = null;
  byId("pin-form").hidden = true;
  updateControls();
}

function showPinForm() {
  byId("pin-form").hidden = false;
  byId("pin", HTMLInputElement).focus();
}

// -- Sensor logs ---------------------------------------------------------------------------

/** @param {HTMLInputElement} input */
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
  if (send("log_load", { text }) !== null) byId("replay-status").textContent = `loading ${file.name}…`;
}

function replaySpeed() {
  return Number(byId("replay-speed", HTMLSelectElement).value);
}

// -- Controls, status -------------------------------------------------------------------------

/**
 * @param {string} id
 */
const button = (id) => byId(id, HTMLButtonElement);

function updateControls() {
  const active = ui.canAct && shared.connected;
  button("new-pin").hidden = !(active && shared.hello?.pin_required);
  document.body.classList.toggle("locked", !ui.canAct);
  const controls = document.querySelectorAll(".control button, .control select, .control input, #buttons button");
  for (const control of controls) {
    if (control instanceof HTMLButtonElement || control instanceof HTMLSelectElement || control instanceof HTMLInputElement) {
      control.disabled = !active;
    }
  }
  if (!active) return;
  const replay = shared.replay;
  const loaded = Boolean(replay?.loaded);
  const finished = loaded && replay !== null && replay.done >= replay.events;
  button("replay-play").disabled = !loaded || finished;
  button("replay-pause").disabled = !replay?.playing;
  button("replay-step").disabled = !loaded || finished;
  // Unknown (a page opened while recording) leaves both enabled.
  button("record-start").disabled = ui.recording === true;
  button("record-stop").disabled = ui.recording === false;
  button("drop").disabled = (shared.table?.hand ?? []).length === 0;
  device.updateHeld();
}

/**
 * @param {string} words
 * @param {boolean} connected
 */
function setConnection(words, connected) {
  const element = byId("connection");
  element.textContent = words;
  element.classList.toggle("ok", connected);
  document.body.classList.toggle("disconnected", !connected);
  updateControls();
}

/** @param {HTMLElement} element */
function isScrolledDown(element) {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 24;
}

// -- Wiring -------------------------------------------------------------------------------------

function start() {
  button("knock-mode").addEventListener("click", () => nest.setKnockMode(!nest.knockMode));
  button("setup").addEventListener("click", () => {
    const lineup = byId("setup-lineup", HTMLSelectElement).value;
    send("setup", lineup ? { lineup } : {});
  });
  button("clear").addEventListener("click", () => send("clear"));
  for (const id of ["player-red", "player-blue", "computer-level"]) {
    byId(id, HTMLSelectElement).addEventListener("change", () =>
      send("players", {
        red: byId("player-red", HTMLSelectElement).value,
        blue: byId("player-blue", HTMLSelectElement).value,
        level: Number(byId("computer-level", HTMLSelectElement).value),
      }),
    );
  }
  button("drop").addEventListener("click", () => trays.drop());
  button("hint").addEventListener("click", () => send("hint"));

  const logFile = byId("log-file", HTMLInputElement);
  logFile.addEventListener("change", () => loadLog(logFile));
  button("replay-play").addEventListener("click", () => send("replay_play", { speed: replaySpeed() }));
  byId("replay-speed", HTMLSelectElement).addEventListener("change", () => {
    if (shared.replay?.playing) send("replay_play", { speed: replaySpeed() });
  });
  button("replay-pause").addEventListener("click", () => send("replay_pause"));
  button("replay-step").addEventListener("click", () => send("replay_step"));
  button("record-start").addEventListener("click", () => send("record_start"));
  button("record-stop").addEventListener("click", () => send("record_stop"));

  byId("how-to-play-link").addEventListener("click", () => {
    byId("how-to-play", HTMLDetailsElement).open = true;
  });
  button("new-pin").addEventListener("click", () => send("new_pin"));
  byId("pin-form", HTMLFormElement).addEventListener("submit", (event) => {
    event.preventDefault();
    const pin = byId("pin", HTMLInputElement).value.trim();
    if (pin) ui.pinId = send("pin", { pin });
  });

  setConnection("connecting…", false);
  channel.start();
}

start();
