// @ts-check
// The one board drawer of every page: a game's board drawn from what its server sends in
// the hello (the game's `for_page()` board: its `shape`, its cells with their coordinates
// and homes, a square board's lakes). Hex cells (pointy-top, by their axial q and r) and
// square ones (by their column x and row y) are laid out here alike, red's side at the
// bottom: where each cell is drawn, its outline, which cell lies under a point, and the
// cells a drag crosses. The pages put the layers of their own on top (pieces, glows).

import { svgElement } from "./dom.js";

const SQRT3 = Math.sqrt(3);

/**
 * A cell of the board, as `for_page()` says it: a hex cell's axial `q` and `r`, a square
 * one's `x` (east) and `y` (north) from 0; the side whose home (homebase, set-up rows) it
 * is, if any.
 *
 * @typedef {object} BoardCell
 * @property {string} name
 * @property {number} [q]
 * @property {number} [r]
 * @property {number} [x]
 * @property {number} [y]
 * @property {string | null} [home]
 */

/**
 * A board, as `for_page()` says it.
 *
 * @typedef {object} BoardData
 * @property {string} [name]
 * @property {string} shape `hex` or `square`
 * @property {BoardCell[]} cells
 * @property {{ name: string, x: number, y: number }[]} [lakes] a square board's squares without a switch
 * @property {number} [columns]
 * @property {number} [rows]
 */

/**
 * A cell where the page draws it: its centre in SVG units.
 *
 * @typedef {{ name: string, home: string | null, x: number, y: number }} PlacedCell
 */

/**
 * @typedef {{ x: number, y: number }} Point
 */

/** A board laid out on the page, whatever its cells' shape. */
export class BoardLayout {
  /**
   * @param {BoardData | null | undefined} board
   * @param {number} radius a hex cell's radius (centre to corner) on the page, in SVG units;
   *   a square is as wide as a hex cell
   */
  constructor(board, radius) {
    this.board = board;
    this.radius = radius;
    this.isSquare = board?.shape === "square";
    // Neighbouring centres are a pitch apart: a hex cell's width, a square's side.
    this.pitch = this.isSquare ? 1.7 * radius : SQRT3 * radius;
    /** @type {Map<string, PlacedCell>} in the board's order */
    this.cells = new Map();
    /** @type {Map<string, string>} "i,j" (a hex cell's q, r; a square's x, y) → its name */
    this.byGrid = new Map();
    /** @type {Map<string, [number, number]>} name → its q, r or x, y */
    this.grid = new Map();
    for (const cell of board?.cells ?? []) {
      const i = (this.isSquare ? cell.x : cell.q) ?? 0;
      const j = (this.isSquare ? cell.y : cell.r) ?? 0;
      this.grid.set(cell.name, [i, j]);
      this.byGrid.set(`${i},${j}`, cell.name);
      const [x, y] = this.toScreen(i, j);
      this.cells.set(cell.name, { name: cell.name, home: cell.home ?? null, x, y });
    }
  }

  /**
   * Where the centre of the cell at grid place (i, j) is drawn.
   *
   * @param {number} i
   * @param {number} j
   * @returns {[number, number]}
   */
  toScreen(i, j) {
    if (this.isSquare) return [i * this.pitch, -j * this.pitch];
    return [SQRT3 * this.radius * (i + j / 2), -1.5 * this.radius * j];
  }

  /**
   * A cell's outline around (x, y), of class `hex` (a square's `hex square`: styled alike).
   *
   * @param {number} x
   * @param {number} y
   * @returns {SVGElement}
   */
  outline(x, y) {
    if (this.isSquare) {
      const half = this.pitch * 0.485;
      return svgElement("rect", { class: "hex square", x: x - half, y: y - half, width: 2 * half, height: 2 * half });
    }
    const corners = [];
    for (let k = 0; k < 6; k++) {
      const angle = (Math.PI / 180) * (30 + 60 * k);
      const r = this.radius * 0.97;
      corners.push(`${(x + r * Math.cos(angle)).toFixed(2)},${(y + r * Math.sin(angle)).toFixed(2)}`);
    }
    return svgElement("polygon", { class: "hex", points: corners.join(" ") });
  }

  /**
   * The class of a side's home cells: homebases on a hex nest, set-up rows on a square board.
   *
   * @param {string} home
   */
  homeClass(home) {
    return this.isSquare ? `rows-${home}` : `home-${home}`;
  }

  /**
   * What a home cell is to its side, in words.
   *
   * @param {string} home
   */
  homeWords(home) {
    return this.isSquare ? `${home}'s set-up rows` : `${home} homebase`;
  }

  /**
   * The lakes, to draw under the cells: no switch, no piece, never a target.
   *
   * @returns {SVGElement[]}
   */
  lakes() {
    if (!this.isSquare) return [];
    return (this.board?.lakes ?? []).map((lake) => {
      const [x, y] = this.toScreen(lake.x, lake.y);
      const half = this.pitch / 2;
      const drawn = svgElement("rect", {
        class: "lake",
        "data-lake": lake.name,
        x: x - half,
        y: y - half,
        width: this.pitch,
        height: this.pitch,
      });
      const title = svgElement("title");
      title.textContent = `${lake.name}: a lake`;
      drawn.append(title);
      return drawn;
    });
  }

  /**
   * The cell under a point of the SVG, or null (off the board, a lake): by geometry,
   * not by the element hit, which may be a piece dragged over it or a glow.
   *
   * @param {Point} point
   * @returns {string | null}
   */
  cellAt(point) {
    if (this.isSquare) {
      return this.byGrid.get(`${Math.round(point.x / this.pitch)},${Math.round(-point.y / this.pitch)}`) ?? null;
    }
    const r = -point.y / (1.5 * this.radius);
    const q = point.x / (SQRT3 * this.radius) - r / 2;
    const [rq, rr] = axialRound(q, r);
    return this.byGrid.get(`${rq},${rr}`) ?? null;
  }

  /**
   * The cells from `from` (excluded) to `to` (included), each next to the one before, as a
   * piece slid along goes: a fast drag skips cells between two pointer events, but a
   * sliding piece crosses them. On a square board along the row or the column, turning
   * once if it must.
   *
   * @param {string} from
   * @param {string} to
   * @returns {string[]}
   */
  between(from, to) {
    const start = this.grid.get(from);
    const end = this.grid.get(to);
    if (start === undefined || end === undefined) return [];
    /** @type {string[]} */
    const line = [];
    if (this.isSquare) {
      let [x, y] = start;
      const [x1, y1] = end;
      while (x !== x1 || y !== y1) {
        // The longer way first, so that a drag off its line by a little stays on it.
        if (Math.abs(x1 - x) >= Math.abs(y1 - y)) x += Math.sign(x1 - x);
        else y += Math.sign(y1 - y);
        const name = this.byGrid.get(`${x},${y}`);
        if (name) line.push(name);
      }
      return line;
    }
    const [q0, r0] = start;
    const [q1, r1] = end;
    const steps = (Math.abs(q1 - q0) + Math.abs(r1 - r0) + Math.abs(q1 - q0 + r1 - r0)) / 2;
    for (let i = 1; i <= steps; i++) {
      const t = i / steps;
      // The nudge breaks ties on cell edges the same way all along the line.
      const [q, r] = axialRound(q0 + (q1 - q0) * t + 1e-6, r0 + (r1 - r0) * t + 1e-6);
      const name = this.byGrid.get(`${q},${r}`);
      if (name && name !== line[line.length - 1]) line.push(name);
    }
    return line;
  }

  /**
   * The box around every cell's centre, `margin` wider on each side and `room` more above
   * and below (for the sides' names).
   *
   * @param {number} margin
   * @param {number} [room]
   */
  bounds(margin, room = 0) {
    const placed = [...this.cells.values()];
    const xs = placed.length ? placed.map((cell) => cell.x) : [0];
    const ys = placed.length ? placed.map((cell) => cell.y) : [0];
    const left = Math.min(...xs) - margin;
    const top = Math.min(...ys) - margin - room;
    const width = Math.max(...xs) - left + margin;
    const height = Math.max(...ys) - top + margin + room;
    return { left, top, width, height, middle: (Math.min(...xs) + Math.max(...xs)) / 2 };
  }
}

/**
 * @param {number} q
 * @param {number} r
 * @returns {[number, number]}
 */
function axialRound(q, r) {
  const s = -q - r;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}

/**
 * @typedef {object} DrawnBoard
 * @property {SVGGElement} layer the cells (and the lakes under them)
 * @property {Map<string, SVGGElement>} cells each cell's group, of class `cell` and `data-cell` its name
 */

/**
 * The cells of `layout` drawn into `svg` (which is emptied first), with its `viewBox` fit
 * to them: each cell a group of class `cell` (and its home's class), its outline, and
 * with `labels` its name; with `focusable`, a button the keyboard reaches; with
 * `titles`, a tooltip naming it and its home.
 *
 * @param {SVGSVGElement} svg
 * @param {BoardLayout} layout
 * @param {{ margin: number, room?: number, labels?: boolean, focusable?: boolean, titles?: boolean }} options
 * @returns {DrawnBoard}
 */
export function drawBoard(svg, layout, { margin, room = 0, labels = false, focusable = false, titles = false }) {
  svg.replaceChildren();
  const box = layout.bounds(margin, room);
  svg.setAttribute("viewBox", `${box.left.toFixed(1)} ${box.top.toFixed(1)} ${box.width.toFixed(1)} ${box.height.toFixed(1)}`);
  const layer = svgElement("g", { class: "cell-layer" });
  layer.append(...layout.lakes());
  /** @type {Map<string, SVGGElement>} */
  const cells = new Map();
  for (const cell of layout.cells.values()) {
    const group = svgElement("g", { class: "cell", "data-cell": cell.name });
    if (focusable) {
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
    }
    if (cell.home) group.classList.add(layout.homeClass(cell.home));
    if (titles) {
      const title = svgElement("title");
      title.textContent = cell.home ? `${cell.name} (${layout.homeWords(cell.home)})` : cell.name;
      group.append(title);
    }
    group.append(layout.outline(cell.x, cell.y));
    if (labels) {
      const label = svgElement("text", { class: "cell-label", x: cell.x, y: cell.y, dy: "0.35em" });
      label.textContent = cell.name;
      group.append(label);
    }
    layer.append(group);
    cells.set(cell.name, group);
  }
  svg.append(layer);
  return { layer, cells };
}
