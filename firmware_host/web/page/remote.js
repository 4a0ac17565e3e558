// @ts-check
// Remote play on the simulator's page (docs/remote-play.md): the game's code, the
// link's state, "waiting for the copy", a desync; and the players' requests (offer,
// join with a code, resign, draw, take back, answer). app.js sends and receives; this
// module only listens for its "remote" message and sends through app.js's `send`.

import { shared } from "./app.js";
import { byId } from "./dom.js";

/**
 * Remote play as the server's `remote` message says it (docs/remote-play.md).
 *
 * @typedef {object} RemoteMessage
 * @property {string} stage
 * @property {string | null} [code]
 * @property {string | null} [side]
 * @property {string | null} [link]
 * @property {boolean} [waiting_for_copy]
 * @property {string | null} [desync]
 * @property {string | null} [said]
 * @property {string | null} [their_proposal] `draw` or `take_back`
 */

const panel = byId("remote");

const STAGES = new Map([
  ["unpaired", "No game at a distance."],
  ["entering", "A code being entered on the buttons."],
  ["offering", "Game offered: give the other nest this code."],
  ["joining", "Joining: waiting for the offer."],
  ["playing", "Playing at a distance."],
  ["set over", "The set is over."],
  ["desync", "The records differ: play stopped on both nests."],
]);

/**
 * A button that sends a request of `type` with `fields`.
 *
 * @param {string} label
 * @param {string} id
 * @param {string} type
 * @param {Record<string, unknown>} [fields]
 */
function button(label, id, type, fields = {}) {
  const element = document.createElement("button");
  element.type = "button";
  element.id = id;
  element.textContent = label;
  element.addEventListener("click", () => shared.send(type, fields));
  return element;
}

/**
 * @param {string} id
 * @param {string} text
 */
function line(id, text) {
  const element = document.createElement("p");
  element.id = id;
  element.textContent = text;
  return element;
}

function joinForm() {
  const form = document.createElement("form");
  form.id = "remote-join";
  const label = document.createElement("label");
  label.htmlFor = "remote-code";
  label.textContent = "Game code";
  const input = document.createElement("input");
  input.id = "remote-code";
  input.autocomplete = "off";
  input.maxLength = 6;
  input.size = 8;
  input.pattern = "[2-9A-Za-z]{6}";
  input.required = true;
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.textContent = "Join";
  form.append(label, input, submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    shared.send("remote_join", { code: input.value.trim().toUpperCase() });
  });
  return form;
}

/** @param {RemoteMessage} remote */
function show(remote) {
  shared.remote = remote;
  panel.hidden = false;
  const heading = document.createElement("h2");
  heading.id = "remote-heading";
  heading.textContent = "At a distance";
  /** @type {HTMLElement[]} */
  const parts = [heading, line("remote-stage", STAGES.get(remote.stage) ?? remote.stage)];
  if (remote.code && remote.stage !== "entering") parts.push(line("remote-code-shown", remote.code));
  if (remote.side) parts.push(line("remote-side", `This nest plays ${remote.side}.`));
  if (remote.link) parts.push(line("remote-link", remote.link));
  if (remote.waiting_for_copy) parts.push(line("remote-waiting", "waiting for the copy"));
  if (remote.desync) parts.push(line("remote-desync", remote.desync));
  if (remote.said) parts.push(line("remote-said", remote.said));
  const actions = document.createElement("div");
  actions.className = "remote-actions";
  if (["unpaired", "set over", "entering"].includes(remote.stage)) {
    actions.append(button("Offer a game", "remote-offer", "remote_offer"));
    parts.push(actions, joinForm());
  } else {
    if (remote.stage === "playing") {
      if (remote.their_proposal) {
        const asked = remote.their_proposal === "draw" ? "They offer a draw." : "They ask to take back.";
        parts.push(line("remote-asked", asked));
        actions.append(
          button("Accept", "remote-accept", "remote_answer", { accept: true }),
          button("Decline", "remote-decline", "remote_answer", { accept: false }),
        );
      }
      actions.append(
        button("Resign", "remote-resign", "remote_resign"),
        button("Offer a draw", "remote-draw", "remote_draw"),
        button("Ask to take back", "remote-take-back", "remote_take_back"),
      );
    }
    actions.append(button("Leave", "remote-leave", "remote_leave"));
    parts.push(actions);
  }
  const codeInput = () => {
    const input = document.getElementById("remote-code");
    return input instanceof HTMLInputElement ? input : null;
  };
  const typed = codeInput()?.value ?? "";
  panel.replaceChildren(...parts);
  const input = codeInput();
  if (input) input.value = typed; // a redraw keeps what was being typed
}

document.addEventListener("nestref:remote", (event) => {
  if (event instanceof CustomEvent) show(event.detail);
});
