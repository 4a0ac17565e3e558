// @ts-check
// The nest's cues on the page, with Web Audio: the same tunes as the piezo's (sent in
// the hello from the daemon's tunes_as_json(), never a second copy here), played when
// the server says the daemon sounded a cue (a `cue` message), and a mute button whose
// choice the browser remembers (localStorage). The tunes are (Hz or null for a rest,
// ms) pairs; a new cue cuts the one playing, as on the piezo.

import { shared } from "./app.js";
import { byId } from "./dom.js";

const MUTE_KEY = "nestref.muted";
const VOLUME = 0.08; // a square wave is loud: this is about a piezo's next to a laptop

/** @typedef {[number | null, number][]} Tune (Hz or null for a rest, ms) pairs */

const sound = {
  /** @type {Record<string, Tune>} by cue name */
  tunes: {},
  /** @type {AudioContext | null} made at the first cue (or click), as browsers want */
  context: null,
  /** @type {OscillatorNode[]} the oscillators of the tune sounding now */
  playing: [],
  muted: localStorage.getItem(MUTE_KEY) === "1",
};

const button = byId("mute", HTMLButtonElement);

function showMute() {
  button.setAttribute("aria-pressed", String(sound.muted));
  button.textContent = sound.muted ? "Sound off" : "Sound on";
  button.title = sound.muted
    ? "The nest's cues are silent on this page: click to hear them"
    : "The page sounds the nest's cues: click to silence them";
}

function audioContext() {
  if (sound.context === null) {
    /** @type {typeof AudioContext | undefined} (an older Safari's is webkitAudioContext) */
    const Context = window.AudioContext ?? /** @type {{ webkitAudioContext?: typeof AudioContext }} */ (window).webkitAudioContext;
    if (!Context) return null;
    sound.context = new Context();
  }
  // A page not yet clicked may have its audio suspended; it resumes at the first click.
  if (sound.context.state === "suspended") sound.context.resume().catch(() => {});
  return sound.context;
}

function silence() {
  for (const oscillator of sound.playing) {
    try {
      oscillator.stop();
    } catch {
      // already stopped
    }
  }
  sound.playing = [];
}

/** @param {string} name a cue's */
function play(name) {
  const tune = Object.hasOwn(sound.tunes, name) ? sound.tunes[name] : undefined;
  if (sound.muted || !Array.isArray(tune)) return;
  const context = audioContext();
  if (context === null) return;
  silence();
  let at = context.currentTime + 0.01;
  for (const [hz, ms] of tune) {
    const seconds = ms / 1000;
    if (typeof hz === "number") {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = "square"; // as the piezo's half-duty pulses
      oscillator.frequency.value = hz;
      gain.gain.value = VOLUME;
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + seconds);
      sound.playing.push(oscillator);
    }
    at += seconds;
  }
}

button.addEventListener("click", () => {
  sound.muted = !sound.muted;
  localStorage.setItem(MUTE_KEY, sound.muted ? "1" : "0");
  if (sound.muted) silence();
  else audioContext(); // a click: the moment a browser lets a page's audio start
  showMute();
});

document.addEventListener("nestref:hello", (event) => {
  const tunes = event instanceof CustomEvent ? event.detail?.tunes : null;
  if (tunes !== null && typeof tunes === "object") sound.tunes = tunes;
});

document.addEventListener("nestref:cue", (event) => {
  const cue = event instanceof CustomEvent ? event.detail?.cue : null;
  if (typeof cue === "string") play(cue);
});

// Any click on the page lets its audio start (browsers keep it suspended until one).
document.addEventListener("pointerdown", () => {
  if (!sound.muted && sound.context?.state === "suspended") sound.context.resume().catch(() => {});
});

// The hello may have come before this script ran.
if (shared.hello?.tunes) sound.tunes = shared.hello.tunes;
showMute();
