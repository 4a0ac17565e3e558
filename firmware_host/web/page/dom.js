// @ts-check
// What every page's scripts reach the document with: an element by its id, of the kind
// expected (or an error naming what is missing, rather than a null met later); SVG
// elements made with their attributes; and the status line a page says a passing thing in.

export const SVG_NS = "http://www.w3.org/2000/svg";
const STATUS_MS = 5000; // how long the status line stays

/**
 * The element with the id `id`, which must be a `kind` (an HTMLElement unless told).
 * Throws an Error if there is none of that kind.
 *
 * @template {Element} [T=HTMLElement]
 * @param {string} id
 * @param {new (...args: any[]) => T} [kind]
 * @returns {T}
 */
export function byId(id, kind) {
  const found = document.getElementById(id);
  const expected = kind ?? HTMLElement;
  if (!(found instanceof expected)) throw new Error(`the page has no ${expected.name} #${id}`);
  return /** @type {T} */ (/** @type {unknown} */ (found));
}

/**
 * An SVG element named `name`, with `attributes` (numbers written as they are).
 *
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} name
 * @param {Record<string, string | number>} [attributes]
 * @returns {SVGElementTagNameMap[K]}
 */
export function svgElement(name, attributes = {}) {
  const made = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  return made;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let statusTimer;

/**
 * Says `text` in the page's status line (`#status`) for a few seconds; `kind` (`info`,
 * `error`) styles it.
 *
 * @param {string} text
 * @param {string} kind
 */
export function showStatus(text, kind) {
  const element = byId("status");
  element.textContent = text;
  element.dataset.kind = kind;
  element.hidden = false;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => {
    element.hidden = true;
  }, STATUS_MS);
}
