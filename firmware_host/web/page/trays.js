// @ts-check
// The simulator's hand and box: the pieces lifted off the nest and not put down yet, and
// those off the nest. A click on a hand's piece chooses it to go down next; a click on a
// box's piece takes it into the hand; "Into the box" drops one from the hand.

import { byId } from "./dom.js";
import { R } from "./nest.js";
import { Pieces } from "./pieces.js";

/**
 * A piece off the nest, as the server's `table` says it: its `id` on the table, its letter.
 *
 * @typedef {{ id: number | string, piece: string }} TrayPiece
 */

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function sameId(a, b) {
  return a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b);
}

/** The hand and the box on the page (`#hand`, `#box`). */
export class Trays {
  /**
   * @param {(type: string, fields: Record<string, unknown>) => unknown} send a request to the server
   */
  constructor(send) {
    this.send = send;
    this.pieces = new Pieces(null, R); // the game's, once the hello has come
    /** @type {number | string | null} a hand's piece, chosen to go down next */
    this.chosen = null;
    /** @type {TrayPiece[]} */
    this.hand = [];
    /** @type {number | string | null} the one a player would put down (the server says which) */
    this.next = null;
  }

  /**
   * The trays as the server's table says: `hand`, `box`, and `next`, the hand's piece a
   * player would put down (of the side to move, as a capturer puts down its own piece).
   *
   * @param {TrayPiece[]} hand
   * @param {TrayPiece[]} box
   * @param {number | string | null} next
   */
  show(hand, box, next) {
    this.hand = hand;
    this.next = next;
    if (!hand.some((piece) => sameId(piece.id, this.chosen))) this.chosen = null;
    this.showHand();
    this.showBox(box);
  }

  /**
   * One piece as a button of a tray.
   *
   * @param {TrayPiece} piece
   */
  item(piece) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tray-piece";
    button.dataset.pieceId = String(piece.id);
    button.dataset.letter = piece.piece;
    button.setAttribute("aria-label", this.pieces.name(piece.piece));
    button.title = this.pieces.name(piece.piece);
    button.append(this.pieces.icon(piece.piece));
    return button;
  }

  showHand() {
    const container = byId("hand");
    container.replaceChildren();
    for (const piece of this.hand) {
      const item = this.item(piece);
      item.addEventListener("click", () => {
        this.chosen = sameId(piece.id, this.chosen) ? null : piece.id;
        this.markHand();
      });
      container.append(item);
    }
    this.markHand();
    byId("hand-note").hidden = this.hand.length > 0;
  }

  // Which piece `put` will put down: the one chosen, or else the one a player would;
  // none when the hand holds different pieces and the choice is the player's.
  markHand() {
    const items = [...byId("hand").querySelectorAll("button[data-piece-id]")].filter(
      (item) => item instanceof HTMLButtonElement,
    );
    const chosen = items.find((item) => sameId(item.dataset.pieceId, this.chosen));
    const next = chosen ?? items.find((item) => sameId(item.dataset.pieceId, this.next));
    for (const item of items) {
      item.setAttribute("aria-pressed", String(item === chosen));
      item.classList.toggle("next", item === next);
      const what = item === next ? "put down next" : "click to put this one down next";
      item.title = `${this.pieces.name(item.dataset.letter ?? "")}: ${what}`;
    }
    byId("hand-choose").hidden = Boolean(next) || items.length < 2;
  }

  /** @param {TrayPiece[]} box */
  showBox(box) {
    const container = byId("box");
    container.replaceChildren();
    // Sorted, so that the box reads as two sets of pieces rather than the order they fell in.
    for (const piece of [...box].sort((a, b) => this.pieces.rank(a.piece) - this.pieces.rank(b.piece))) {
      const item = this.item(piece);
      item.title = `${this.pieces.name(piece.piece)}: click to take it into the hand`;
      item.addEventListener("click", () => this.send("take", { piece: piece.id }));
      container.append(item);
    }
    byId("box-note").hidden = box.length > 0;
  }

  /** "Into the box": the piece chosen, or the one to go down next, or the last lifted. */
  drop() {
    const chosen =
      this.hand.find((piece) => sameId(piece.id, this.chosen)) ??
      this.hand.find((piece) => sameId(piece.id, this.next)) ??
      this.hand[this.hand.length - 1];
    if (chosen) this.send("drop", { piece: chosen.id });
  }
}
