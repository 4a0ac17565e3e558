// @ts-check
// The nest on the simulator's page: the board drawn (board.js) with the cell lights'
// glows and the pieces (pieces.js) on it, and the hands acting on it — a click or a tap
// lifts a piece or puts one down, a drag slides a piece across the cells it crosses, a
// right-click, Alt-click or the "Knock off" tool knocks a piece off; the keyboard does
// the same on a focused cell. It sends those acts to the server and never applies a
// move itself: what the referee makes of an act comes back as the table.

import { BoardLayout, drawBoard } from "./board.js";
import { svgElement } from "./dom.js";
import { Pieces } from "./pieces.js";

export const R = 40; // a cell's radius, centre to corner, in SVG units
const DRAG_THRESHOLD_PX = 6; // below this a pointer that moved is still a click

/**
 * A pointer held down on the nest: a click or a slide in the making.
 *
 * @typedef {object} Press
 * @property {number} pointerId
 * @property {number} x where it went down, on the screen
 * @property {number} y
 * @property {string[]} path the cells crossed, the first where it went down
 * @property {boolean} hasPiece whether a piece stood there (only a piece is slid)
 * @property {boolean} dragging
 * @property {SVGGElement | null} ghost the piece drawn under the pointer
 */

/**
 * What the nest asks of its page.
 *
 * @typedef {object} NestHooks
 * @property {(type: string, fields: Record<string, unknown>) => unknown} send a request to the server
 * @property {() => boolean} canAct whether this page may act on the table now
 * @property {() => Record<string, string>} tableCells the table's pieces by cell, as the server last said
 * @property {() => number | string | null} chosenPiece the hand's piece chosen to go down next, if any
 * @property {(on: boolean) => void} knockModeChanged the "Knock off" tool was turned on or off
 */

/** The nest drawn in an SVG, and the hands' acts on it. */
export class NestView {
  /**
   * @param {SVGSVGElement} svg
   * @param {NestHooks} hooks
   */
  constructor(svg, hooks) {
    this.svg = svg;
    this.hooks = hooks;
    this.layout = new BoardLayout(null, R);
    this.pieces = new Pieces(null, R);
    /** @type {Map<string, { element: SVGGElement, glow: SVGCircleElement }>} */
    this.drawn = new Map();
    this.pieceLayer = svgElement("g");
    this.dragLayer = svgElement("g");
    /** @type {Press | null} */
    this.press = null;
    this.knockMode = false;
    this.lastPointerType = "mouse";
    svg.addEventListener("pointerdown", (event) => {
      this.lastPointerType = event.pointerType;
      this.onPointerDown(event);
    });
    svg.addEventListener("pointermove", (event) => this.onPointerMove(event));
    svg.addEventListener("pointerup", (event) => this.onPointerUp(event));
    svg.addEventListener("pointercancel", () => this.cancelPress());
    svg.addEventListener("contextmenu", (event) => this.onContextMenu(event));
    svg.addEventListener("keydown", (event) => this.onKey(event));
  }

  // -- drawing ----------------------------------------------------------------------------

  /**
   * The board of the game drawn anew, its pieces drawn as `pieces` says.
   *
   * @param {import("./board.js").BoardData | null | undefined} board
   * @param {Pieces} pieces
   */
  build(board, pieces) {
    this.cancelPress();
    this.pieces = pieces;
    this.layout = new BoardLayout(board, R);
    this.drawn.clear();
    const room = R * 0.9; // above and below, for the sides' names
    const { layer, cells } = drawBoard(this.svg, this.layout, {
      margin: R * 1.1,
      room,
      labels: true,
      focusable: true,
      titles: true,
    });
    this.svg.setAttribute(
      "aria-label",
      `The nest ${board?.name ?? ""}: ${cells.size} cells, blue at the top. ` +
        "On a cell, Enter lifts or puts a piece and K knocks it off.",
    );
    const defs = svgElement("defs");
    const gradient = svgElement("radialGradient", { id: "glow-gradient" });
    // A ring rather than a disc: the cell's own name and piece stay readable under it.
    gradient.append(
      svgElement("stop", { offset: "0.55", "stop-color": "#ffd54f", "stop-opacity": "0" }),
      svgElement("stop", { offset: "0.75", "stop-color": "#ffc107", "stop-opacity": "0.9" }),
      svgElement("stop", { offset: "1", "stop-color": "#ffb300", "stop-opacity": "0" }),
    );
    defs.append(gradient);
    const box = this.layout.bounds(R * 1.1, room);
    const north = svgElement("text", { x: box.middle, y: box.top + room * 0.75, class: "side-name blue" });
    north.textContent = "blue";
    const south = svgElement("text", { x: box.middle, y: box.top + box.height - room * 0.35, class: "side-name red" });
    south.textContent = "red";
    layer.id = "cell-layer";
    // The glow sits above every cell, so a lit cell's halo is not hidden by its
    // neighbours, and under the pieces, so the pieces stay readable.
    const glowLayer = svgElement("g", { id: "glow-layer", "aria-hidden": "true" });
    this.pieceLayer = svgElement("g", { id: "piece-layer" });
    this.dragLayer = svgElement("g", { id: "drag-layer", "aria-hidden": "true" });
    for (const [name, element] of cells) {
      const cell = this.layout.cells.get(name);
      if (cell === undefined) continue;
      const glow = svgElement("circle", { class: "glow", cx: cell.x, cy: cell.y, r: R * 1.15 });
      glowLayer.append(glow);
      this.drawn.set(name, { element, glow });
    }
    this.svg.prepend(defs, north, south);
    this.svg.append(glowLayer, this.pieceLayer, this.dragLayer);
  }

  /**
   * What a cell's side is to it: a homebase on a hex nest, set-up rows on a square board.
   *
   * @param {string} home
   */
  homeWords(home) {
    return this.layout.homeWords(home);
  }

  /**
   * The pieces drawn where `letters` ({cell: letter}) puts them.
   *
   * @param {Record<string, string>} letters
   */
  showPieces(letters) {
    this.pieceLayer.replaceChildren();
    for (const [name, { element }] of this.drawn) {
      const cell = this.layout.cells.get(name);
      if (cell === undefined) continue;
      const letter = Object.hasOwn(letters, name) ? letters[name] : undefined;
      const occupied = typeof letter === "string";
      element.classList.toggle("occupied", occupied);
      element.querySelector(".cell-label")?.setAttribute("y", String(occupied ? cell.y + R * 0.8 : cell.y));
      const where = cell.home ? `, ${this.homeWords(cell.home)}` : "";
      element.setAttribute("aria-label", `${name}${where}: ${occupied ? this.pieces.name(letter) : "empty"}`);
      if (!occupied) continue;
      const piece = this.pieces.glyph(letter, { title: `${this.pieces.name(letter)} on ${name}` });
      piece.classList.add("piece");
      piece.setAttribute("data-piece", letter);
      piece.setAttribute("data-cell", name);
      piece.setAttribute("transform", `translate(${cell.x.toFixed(2)} ${cell.y.toFixed(2)})`);
      if (this.press?.dragging && this.press.path[0] === name) piece.classList.add("dragging");
      this.pieceLayer.append(piece);
    }
  }

  /**
   * The cell lights: the cells in `lit` ({cell: true}) glow.
   *
   * @param {Record<string, boolean>} lit
   */
  showLights(lit) {
    for (const [name, { element, glow }] of this.drawn) {
      const on = Object.hasOwn(lit, name) && Boolean(lit[name]);
      element.classList.toggle("lit", on);
      glow.classList.toggle("on", on);
    }
  }

  /**
   * The "Knock off" tool: while on, a click on a piece knocks it off.
   *
   * @param {boolean} on
   */
  setKnockMode(on) {
    this.knockMode = on;
    this.svg.classList.toggle("knocking", on);
    this.hooks.knockModeChanged(on);
  }

  // -- acting --------------------------------------------------------------------------------

  /**
   * @param {string} cell
   */
  isPiece(cell) {
    const cells = this.hooks.tableCells();
    return Object.hasOwn(cells, cell) && typeof cells[cell] === "string";
  }

  /**
   * A click (or Enter) on `cell`: a piece lifted (or knocked off), or one put down.
   *
   * @param {string} cell
   * @param {{ knock?: boolean }} [options]
   */
  actOn(cell, { knock = false } = {}) {
    if (!this.hooks.canAct()) return;
    if (this.isPiece(cell)) {
      this.hooks.send(knock || this.knockMode ? "knock" : "lift", { cell });
      return;
    }
    if (knock) return;
    // Sent even when the hand looks empty here: the table update of a lift just made
    // may still be on its way, and the server says so if the hand is empty.
    /** @type {Record<string, unknown>} */
    const fields = { cell };
    const chosen = this.hooks.chosenPiece();
    if (chosen !== null) fields["piece"] = chosen;
    this.hooks.send("put", fields);
  }

  /**
   * A point of the screen in the SVG's own units.
   *
   * @param {number} clientX
   * @param {number} clientY
   */
  svgPoint(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    return new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  }

  /**
   * The cell under a point of the screen, from geometry rather than from the element
   * hit: a dragged piece or a glow may cover the cell.
   *
   * @param {number} clientX
   * @param {number} clientY
   */
  cellAt(clientX, clientY) {
    const point = this.svgPoint(clientX, clientY);
    return point ? this.layout.cellAt(point) : null;
  }

  /** @param {PointerEvent} event */
  onPointerDown(event) {
    if (!this.hooks.canAct() || this.press || event.button !== 0) return;
    const cell = this.cellAt(event.clientX, event.clientY);
    if (!cell) return;
    event.preventDefault(); // no text selection, no native drag of the SVG
    this.press = {
      pointerId: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      path: [cell],
      hasPiece: this.isPiece(cell),
      dragging: false,
      ghost: null,
    };
    this.svg.setPointerCapture(event.pointerId);
  }

  /** @param {PointerEvent} event */
  onPointerMove(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId || !press.hasPiece) return;
    const origin = press.path[0] ?? "";
    if (!press.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD_PX) return;
      press.dragging = true;
      press.ghost = this.pieces.glyph(this.hooks.tableCells()[origin] ?? "");
      press.ghost.classList.add("ghost");
      this.dragLayer.append(press.ghost);
      this.svg.querySelector(`[data-piece][data-cell="${origin}"]`)?.classList.add("dragging");
      this.svg.classList.add("sliding");
    }
    const point = this.svgPoint(event.clientX, event.clientY);
    if (point) press.ghost?.setAttribute("transform", `translate(${point.x.toFixed(1)} ${point.y.toFixed(1)})`);
    const cell = this.cellAt(event.clientX, event.clientY);
    const end = press.path[press.path.length - 1] ?? origin;
    if (!cell || cell === end) return;
    for (const next of this.layout.between(end, cell)) {
      // Coming back to a cell already crossed cuts the loop off: the player is
      // correcting the drag, and a slide crosses each cell once.
      const seen = press.path.indexOf(next);
      if (seen >= 0) press.path.length = seen + 1;
      else press.path.push(next);
    }
    this.markPath(press.path);
  }

  /** @param {PointerEvent} event */
  onPointerUp(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    this.cancelPress();
    const { path } = press;
    const origin = path[0] ?? "";
    if (press.dragging && path.length > 1 && path[path.length - 1] !== origin) {
      this.hooks.send("slide", { path });
    } else {
      this.actOn(origin, { knock: event.altKey });
    }
  }

  /** A press given up: nothing is sent. */
  cancelPress() {
    const press = this.press;
    if (!press) return;
    this.press = null;
    press.ghost?.remove();
    this.svg.querySelector(".piece.dragging")?.classList.remove("dragging");
    this.svg.classList.remove("sliding");
    this.markPath([]);
    if (this.svg.hasPointerCapture?.(press.pointerId)) this.svg.releasePointerCapture(press.pointerId);
  }

  /** @param {string[]} path */
  markPath(path) {
    const on = new Set(path);
    for (const [name, { element }] of this.drawn) element.classList.toggle("on-path", on.has(name));
  }

  /** @param {MouseEvent} event */
  onContextMenu(event) {
    const cell = this.cellAt(event.clientX, event.clientY);
    if (!cell || !this.isPiece(cell) || !this.hooks.canAct()) return;
    event.preventDefault();
    // On a touch screen a long press opens the context menu: a player hesitating before
    // a drag must not knock the piece off. Touch players use the "Knock off" tool.
    const pointerType = event instanceof PointerEvent ? event.pointerType : "";
    if (pointerType === "touch" || this.lastPointerType === "touch") return;
    this.cancelPress();
    this.hooks.send("knock", { cell });
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    const target = event.target instanceof Element ? event.target : null;
    const cell = target?.closest(".cell")?.getAttribute("data-cell");
    if (event.key === "Escape") {
      this.cancelPress();
      this.setKnockMode(false);
      return;
    }
    if (!cell) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.actOn(cell);
    } else if (event.key === "k" || event.key === "K" || event.key === "Delete") {
      event.preventDefault();
      this.actOn(cell, { knock: true });
    }
  }
}
