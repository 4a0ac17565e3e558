// @ts-check
// The one WebSocket client of every page: the simulator's and the spectators' page
// (`/ws`), the players' own screens (`/ws/player`) and the live boards (`/live/ws`). It
// connects to its page's own server, and again after a close, with a pause that grows
// (so that a server that is down is not hammered; the first is short, because most
// drops are a server restarting). It reads each message strictly: JSON text of an object
// with a string `type` that the page has a handler of its own for — never one an object
// inherits, such as `__proto__` or `toString` — and hands it to that handler. Anything
// else is left out, warned of on the console and kept in `ignored`: a message never
// throws, and the page goes on.

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10000;
const IGNORED_KEPT = 20; // the last messages left out, for the tests and curious users

/**
 * A message from the server: its `type`, and the fields its type has.
 *
 * @typedef {{ type: string, [field: string]: unknown }} Message
 */

/**
 * What the page does with each type of message. A handler declares the fields it reads
 * (the server's protocol, docs/simulator.md), so its parameter is typed by the page.
 *
 * @typedef {Record<string, (message: any) => void>} Handlers
 */

/**
 * @typedef {object} ChannelOptions
 * @property {string} path the socket's path on the page's own server, such as `/ws`
 * @property {Handlers} handlers by message type; a type without one of its own is ignored
 * @property {string} [events] if given, every message handled is dispatched on `document`
 *   as the event `${events}:${type}` too (its `detail` the message), after its handler,
 *   for the page's other modules
 * @property {() => void} [onOpen] the socket opened
 * @property {(delay: number) => void} [onClose] the socket closed: it opens again in `delay` ms
 * @property {(reason: string) => void} [onIgnored] a message was left out, for `reason`
 */

/**
 * What a message's text is: the message, or why it is none the page reads.
 *
 * @param {unknown} data the text the socket received
 * @param {Handlers} handlers
 * @returns {{ message: Message, reason?: undefined } | { message?: undefined, reason: string }}
 */
export function readMessage(data, handlers) {
  if (typeof data !== "string") return { reason: "not text" };
  /** @type {unknown} */
  let parsed;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { reason: "not JSON" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { reason: "not an object" };
  const type = /** @type {{ type?: unknown }} */ (parsed).type;
  if (typeof type !== "string") return { reason: "no type" };
  if (!Object.hasOwn(handlers, type)) return { reason: `no handler for the type ${JSON.stringify(type.slice(0, 40))}` };
  return { message: /** @type {Message} */ (parsed) };
}

/** A page's WebSocket to its own server: connected by {@link Channel.start}. */
export class Channel {
  /** @param {ChannelOptions} options */
  constructor(options) {
    this.options = options;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.retries = 0;
    this.nextId = 1;
    /** @type {string[]} why each of the last few messages left out was (newest last) */
    this.ignored = [];
  }

  /** Whether a message sent now goes out. */
  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Connects, and from then on connects again whenever the socket closes. */
  start() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${this.options.path}`);
    this.socket = socket;
    socket.addEventListener("open", () => this.options.onOpen?.());
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.retries);
      this.retries += 1;
      this.options.onClose?.(delay);
      setTimeout(() => this.start(), delay);
    });
  }

  /**
   * Sends a request of `type` with `fields`; its id (for the server's `ack` or `error`),
   * or null if the socket is not open (nothing is sent).
   *
   * @param {string} type
   * @param {Record<string, unknown>} [fields]
   * @returns {number | null}
   */
  send(type, fields = {}) {
    if (this.socket === null || !this.isOpen) return null;
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type, id, ...fields }));
    return id;
  }

  /**
   * One message from the server, handled, or left out with a warning.
   *
   * @param {unknown} data
   */
  receive(data) {
    const { message, reason } = readMessage(data, this.options.handlers);
    if (message === undefined) {
      this.ignored.push(reason);
      if (this.ignored.length > IGNORED_KEPT) this.ignored.shift();
      console.warn(`nestref: a message on ${this.options.path} left out: ${reason}`);
      this.options.onIgnored?.(reason);
      return;
    }
    // The server has spoken: a drop from now on is retried quickly again.
    this.retries = 0;
    this.options.handlers[message.type]?.(message);
    // After handling, so that a listener sees the page's state already up to date.
    const prefix = this.options.events;
    if (prefix) document.dispatchEvent(new CustomEvent(`${prefix}:${message.type}`, { detail: message }));
  }
}
