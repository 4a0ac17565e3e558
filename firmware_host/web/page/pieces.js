// @ts-check
// The one piece renderer of every page: a game's pieces drawn from what its server sends
// in the hello (the game's `for_page()`: each piece's side, name, shape and drawing).
// The drawings are the game's data, in units of a cell's radius; nothing here knows a
// game's pieces, so a new game's pictures are in its own package, never in this file.

import { svgElement } from "./dom.js";

/**
 * One part of a piece's drawing, in units of a cell's radius (centre to corner), around
 * the cell's centre with y down. A `path` is absolute commands with their numbers
 * (`["M", 0, -0.6]`, `["C", ...]`, `["Z"]`; no arcs, whose flags are no lengths); a
 * `rect` may be turned by `rotate` degrees about the centre.
 *
 * @typedef {{ kind: "circle", r: number, cx?: number, cy?: number }
 *   | { kind: "ellipse", rx: number, ry: number, cx?: number, cy?: number }
 *   | { kind: "rect", x: number, y: number, width: number, height: number, rx?: number, rotate?: number }
 *   | { kind: "polygon", points: [number, number][] }
 *   | { kind: "path", d: [string, ...number[]][] }} DrawingPart
 */

/**
 * A piece of the game, as `for_page()` says it.
 *
 * @typedef {object} PieceInfo
 * @property {string} side `red` or `blue`
 * @property {string} name such as `egg`, or `piece` for one whose rank is not shown
 * @property {string} shape the drawing's name (the page styles by it: `shape-egg`)
 * @property {number} order where it goes in the box, among its side's
 * @property {DrawingPart[]} [drawing] its body; a disc if none
 * @property {number} [strength]
 * @property {string} [moves]
 */

/** @type {DrawingPart[]} */
const DISC = [{ kind: "circle", r: 0.55 }];
const SIDE_ORDER = new Map([
  ["red", 0],
  ["blue", 1],
]);

/** A game's pieces by letter, and their drawings at one size. */
export class Pieces {
  /**
   * @param {Record<string, PieceInfo> | null | undefined} byLetter the hello's `game.pieces`
   * @param {number} radius a cell's radius on the page, in SVG units
   */
  constructor(byLetter, radius) {
    this.byLetter = byLetter ?? {};
    this.radius = radius;
  }

  /**
   * The piece of `letter`, or null if the game has none (a letter never inherited).
   *
   * @param {string} letter
   * @returns {PieceInfo | null}
   */
  info(letter) {
    return Object.hasOwn(this.byLetter, letter) ? (this.byLetter[letter] ?? null) : null;
  }

  /**
   * What a player calls the piece: `red egg`.
   *
   * @param {string} letter
   */
  name(letter) {
    const info = this.info(letter);
    return info ? `${info.side} ${info.name}` : "piece not known yet";
  }

  /**
   * Where the piece goes in a sorted box: red's first, each side's in the game's order,
   * a piece not known last.
   *
   * @param {string} letter
   */
  rank(letter) {
    const info = this.info(letter);
    return info ? (SIDE_ORDER.get(info.side) ?? 2) * 100 + info.order : 1000;
  }

  /** The letters, sorted as in the box. */
  letters() {
    return Object.keys(this.byLetter).sort((a, b) => this.rank(a) - this.rank(b));
  }

  /**
   * The piece of `letter` drawn around (0, 0): a group of class `glyph`, its side, its
   * name and `shape-` its shape, holding the body and the letter (`?` for a letter the
   * game does not have, drawn as a grey disc); with `title`, a tooltip.
   *
   * @param {string} letter
   * @param {{ title?: string }} [options]
   * @returns {SVGGElement}
   */
  glyph(letter, { title } = {}) {
    const info = this.info(letter);
    const side = info?.side ?? "unknown";
    const group = svgElement("g", { class: `glyph ${side} ${info?.name ?? "unknown"} shape-${info?.shape ?? "disc"}` });
    if (title !== undefined) {
      const tooltip = svgElement("title");
      tooltip.textContent = title;
      group.append(tooltip);
    }
    for (const part of info?.drawing ?? DISC) {
      const body = drawPart(part, this.radius);
      if (body === null) continue;
      body.classList.add("body");
      group.append(body);
    }
    const text = svgElement("text", { class: "letter", dy: "0.35em" });
    text.textContent = info ? letter : "?";
    group.append(text);
    return group;
  }

  /**
   * The piece of `letter` in an SVG of its own, a cell wide: for the trays and lists.
   *
   * @param {string} letter
   */
  icon(letter) {
    const r = this.radius;
    const icon = svgElement("svg", { viewBox: `${-r} ${-r} ${2 * r} ${2 * r}`, "aria-hidden": "true" });
    icon.append(this.glyph(letter));
    return icon;
  }
}

/**
 * One part of a drawing, at `radius`; null for a kind this page does not draw.
 *
 * @param {DrawingPart} part
 * @param {number} radius
 * @returns {SVGElement | null}
 */
function drawPart(part, radius) {
  const at = (/** @type {number} */ value) => Number((value * radius).toFixed(2));
  switch (part.kind) {
    case "circle":
      return svgElement("circle", { cx: at(part.cx ?? 0), cy: at(part.cy ?? 0), r: at(part.r) });
    case "ellipse":
      return svgElement("ellipse", { cx: at(part.cx ?? 0), cy: at(part.cy ?? 0), rx: at(part.rx), ry: at(part.ry) });
    case "rect": {
      const rect = svgElement("rect", { x: at(part.x), y: at(part.y), width: at(part.width), height: at(part.height) });
      if (part.rx !== undefined) rect.setAttribute("rx", String(at(part.rx)));
      if (part.rotate !== undefined) rect.setAttribute("transform", `rotate(${part.rotate})`);
      return rect;
    }
    case "polygon":
      return svgElement("polygon", { points: part.points.map(([x, y]) => `${at(x)},${at(y)}`).join(" ") });
    case "path":
      return svgElement("path", {
        d: part.d.map(([command, ...numbers]) => command + numbers.map(at).join(",")).join(" "),
      });
    default:
      return null;
  }
}
