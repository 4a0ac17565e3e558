// @ts-check
// The nest's own devices on the simulator's page, as the daemon drives them: the status
// lights, and the buttons — pressed with a click, held with a long press or with a named
// control of their own ("New game…", "Resign…"), which asks first where a hold cannot
// be undone.

import { byId } from "./dom.js";

const LONG_PRESS_MS = 600;

/**
 * A button of the nest, as the hello says it: its name, what a press and a hold do, and
 * the label of its hold's own control (the daemon's table, daemon/button_meanings.py).
 *
 * @typedef {{ name: string, press: string, hold: string, label?: string }} ButtonHelp
 */

/**
 * What a button means now, as the `game` message says it: a press's and a hold's words
 * (null: nothing now), and what to ask before the hold where it cannot be undone (on the
 * nest a hold of two seconds is deliberate, on a page it would be one click).
 *
 * @typedef {object} ButtonNow
 * @property {string | null} press
 * @property {string | null} hold
 * @property {string} [label] the hold's control's label now (remote play's differ)
 * @property {{ text: string, ok: string } | null} ask
 */

/**
 * The game as the server's `game` message says it (docs/simulator.md), as far as the
 * buttons need it.
 *
 * @typedef {{ to_move?: string | null, view?: string, buttons?: Record<string, ButtonNow> }} GameState
 */

/**
 * What the nest's devices ask of their page.
 *
 * @typedef {object} DeviceHooks
 * @property {(type: string, fields: Record<string, unknown>) => unknown} send a request to the server
 * @property {() => boolean} isActive whether this page may act now, connected
 * @property {() => GameState | null} game the game as the server last said
 */

/**
 * @param {string} name
 */
const spoken = (name) => name.replace(/_/g, " ");

/** The status lights and the buttons of the nest. */
export class DeviceView {
  /** @param {DeviceHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    byId("confirm-dialog", HTMLDialogElement).addEventListener("close", () => this.onConfirmClosed());
  }

  /**
   * The status lights, by name: on or off.
   *
   * @param {Record<string, boolean>} status
   */
  showLights(status) {
    const container = byId("lights");
    const names = Object.keys(status);
    const shown = [...container.querySelectorAll(".led")].map((led) => led.getAttribute("data-light"));
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
        label.textContent = spoken(name);
        label.setAttribute("aria-hidden", "true");
        wrap.append(led, label);
        container.append(wrap);
      }
    }
    for (const name of names) {
      const led = byId(`light-${name}`);
      led.classList.toggle("on", Boolean(status[name]));
      led.setAttribute("aria-label", `${spoken(name)} light ${status[name] ? "on" : "off"}`);
    }
  }

  /**
   * The nest's buttons, each pressed by a click and held by a long press, and what each
   * does held as a named control.
   *
   * @param {ButtonHelp[]} buttons
   */
  buildButtons(buttons) {
    const container = byId("buttons");
    const held = byId("held");
    container.replaceChildren();
    held.replaceChildren();
    for (const { name, press: pressHelp, hold: holdHelp, label } of buttons) {
      const press = document.createElement("button");
      press.type = "button";
      press.id = `button-${name}`;
      press.className = "device-button";
      press.textContent = spoken(name);
      press.title = `${pressHelp}. Long-press: ${holdHelp.replace(/^Hold:?\s*/i, "")}.`;
      this.attachLongPress(press, name);
      container.append(press);

      const control = document.createElement("button");
      control.type = "button";
      control.id = `held-${name}`;
      control.className = "held-button";
      control.dataset.button = name;
      control.textContent = label || `${spoken(name)} (held)…`;
      control.title = `${holdHelp} (the ${spoken(name)} button held)`;
      control.addEventListener("click", () => this.hold(name));
      held.append(control);
    }
    this.updateHeld();
  }

  /**
   * The button `name` held: at once if harmless, else once the user has said yes.
   *
   * @param {string} name
   */
  hold(name) {
    const now = this.meaningNow(name);
    if (!now?.hold) return; // it means nothing now, as on the nest
    const question = now.ask;
    if (!question) {
      this.hooks.send("button", { name, hold: true });
      return;
    }
    const dialog = byId("confirm-dialog", HTMLDialogElement);
    byId("confirm-text").textContent = question.text;
    byId("confirm-ok").textContent = question.ok;
    dialog.dataset.button = name;
    dialog.returnValue = "";
    dialog.showModal();
  }

  onConfirmClosed() {
    const dialog = byId("confirm-dialog", HTMLDialogElement);
    if (dialog.returnValue === "ok" && dialog.dataset.button) {
      this.hooks.send("button", { name: dialog.dataset.button, hold: true });
    }
    delete dialog.dataset.button;
  }

  /** The named held controls that mean nothing now are disabled (resign with no game on). */
  updateHeld() {
    const active = this.hooks.isActive();
    for (const control of byId("held").querySelectorAll("button[data-button]")) {
      if (!(control instanceof HTMLButtonElement)) continue;
      const now = this.meaningNow(control.dataset.button ?? "");
      control.disabled = !active || !now?.hold;
      if (now?.label) control.textContent = now.label;
    }
  }

  /**
   * What the button `name` means now, as the daemon last said (none before it has).
   *
   * @param {string} name
   * @returns {ButtonNow | undefined}
   */
  meaningNow(name) {
    const buttons = this.hooks.game()?.buttons;
    return buttons && Object.hasOwn(buttons, name) ? buttons[name] : undefined;
  }

  /**
   * A long press on a device button holds it, as a finger would on the real nest; what
   * cannot be undone asks first, as its named control does.
   *
   * @param {HTMLButtonElement} button
   * @param {string} name
   */
  attachLongPress(button, name) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let held = false;
    const stop = () => {
      clearTimeout(timer);
      timer = undefined;
      button.classList.remove("pressing");
    };
    button.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 || button.disabled) return;
      held = false;
      button.classList.add("pressing");
      timer = setTimeout(() => {
        stop();
        held = true;
        this.hold(name);
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
      this.hooks.send("button", { name });
    });
    button.addEventListener("contextmenu", (event) => event.preventDefault());
  }
}
