"""Pictures of the chessboard: a text diagram for the terminal and an SVG for the docs,
and the pieces as the web page draws them (``PAGE_DRAWINGS``)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape  # (xml.sax.saxutils would load urllib, http and ssl at start-up)
from typing import Any

import chess

from firmware_host.games.base import Piece, Side
from firmware_host.games.chess.board import ChessBoard

_SQUARE = 48.0  # a square's side, in SVG units
_LIGHT, _DARK = "#f0d9b5", "#b58863"
_INK = {Side.RED: "#ffffff", Side.BLUE: "#1b1b1b"}
_EDGE = {Side.RED: "#1b1b1b", Side.BLUE: "#ffffff"}

PAGE_DRAWINGS: dict[str, list[dict[str, Any]]] = {
    "pawn": [
        {"kind": "polygon", "points": [[-0.34, 0.52], [0.34, 0.52], [0.14, -0.06], [-0.14, -0.06]]},
        {"kind": "circle", "r": 0.2, "cy": -0.26},
    ],
    "knight": [
        {
            "kind": "polygon",
            "points": [
                [-0.34, 0.52], [0.38, 0.52], [0.3, 0.08], [0.36, -0.14], [0.12, -0.52], [-0.04, -0.42],
                [-0.4, -0.1], [-0.3, 0.06], [-0.04, -0.04], [-0.22, 0.3],
            ],
        }
    ],
    "bishop": [
        {"kind": "rect", "x": -0.36, "y": 0.36, "width": 0.72, "height": 0.16, "rx": 0.04},
        {"kind": "ellipse", "rx": 0.24, "ry": 0.34, "cy": -0.02},
        {"kind": "circle", "r": 0.09, "cy": -0.46},
    ],
    "rook": [
        {
            "kind": "polygon",
            "points": [
                [-0.38, 0.52], [0.38, 0.52], [0.38, 0.36], [0.25, 0.36], [0.25, -0.22], [0.38, -0.22],
                [0.38, -0.52], [0.22, -0.52], [0.22, -0.38], [0.08, -0.38], [0.08, -0.52], [-0.08, -0.52],
                [-0.08, -0.38], [-0.22, -0.38], [-0.22, -0.52], [-0.38, -0.52], [-0.38, -0.22], [-0.25, -0.22],
                [-0.25, 0.36], [-0.38, 0.36],
            ],
        }
    ],
    "queen": [
        {
            "kind": "polygon",
            "points": [
                [-0.4, 0.52], [0.4, 0.52], [0.3, 0.18], [0.48, -0.38], [0.2, -0.04], [0.12, -0.52],
                [0.0, -0.08], [-0.12, -0.52], [-0.2, -0.04], [-0.48, -0.38], [-0.3, 0.18],
            ],
        }
    ],
    "king": [
        {"kind": "polygon", "points": [[-0.38, 0.52], [0.38, 0.52], [0.26, -0.12], [-0.26, -0.12]]},
        {"kind": "rect", "x": -0.06, "y": -0.6, "width": 0.12, "height": 0.5},
        {"kind": "rect", "x": -0.2, "y": -0.47, "width": 0.4, "height": 0.11},
    ],
}  # fmt: skip
"""Each kind of piece as the web page draws it: the drawing of each piece in
:meth:`~firmware_host.games.base.GamePictures.for_page`, SVG parts in units of a cell's radius
around its centre, y down (``firmware_host/web/page/pieces.js`` says the parts): a
pawn, a knight's head, a bishop's mitre, a rook's tower, a queen's crown, a king's cross,
in the side's colour."""


def text_diagram(letters: Mapping[str, str]) -> str:
    """The board as text, black (north) at the top: the files' letters above and below,
    each rank's number at both ends; a piece as its FEN letter, ``.`` an empty square."""
    files = "    " + " ".join(chess.FILE_NAMES)
    lines = [files]
    for rank in range(8, 0, -1):
        row = " ".join(letters.get(f"{file}{rank}", ".") for file in chess.FILE_NAMES)
        lines.append(f"{rank:>3} {row} {rank}")
    lines.append(files)
    return "\n".join(lines)


def board_svg(board: ChessBoard, pieces: Mapping[str, Piece] | None = None) -> str:
    """The board as an SVG document: light and dark squares with their names, and
    ``pieces`` (each drawn by its chess symbol, in its side's colour) if given."""
    size, margin = 8 * _SQUARE, 30.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-margin:.1f} {-margin:.1f} {size + 2 * margin:.1f} '
        f'{size + 2 * margin:.1f}" width="{size + 2 * margin:.0f}" height="{size + 2 * margin:.0f}" '
        'font-family="sans-serif">',
        f"<title>{escape(board.name, quote=False)}</title>",
        f'<rect x="{-margin:.1f}" y="{-margin:.1f}" width="{size + 2 * margin:.1f}" '
        f'height="{size + 2 * margin:.1f}" fill="white"/>',
        f'<text x="{size / 2:.1f}" y="-10" text-anchor="middle" font-size="15">black (blue, north)</text>',
        f'<text x="{size / 2:.1f}" y="{size + 22:.1f}" text-anchor="middle" font-size="15">white (red, south)</text>',
    ]
    for cell in board.cells:
        column, row = board.coordinates(cell)
        x, y = column * _SQUARE, (7 - row) * _SQUARE
        fill = _DARK if (column + row) % 2 == 0 else _LIGHT
        parts.append(
            f'<rect class="cell" data-cell="{cell}" x="{x:.1f}" y="{y:.1f}" width="{_SQUARE:.1f}" '
            f'height="{_SQUARE:.1f}" fill="{fill}"/>'
        )
        piece = None if pieces is None else pieces.get(cell)
        if piece is None:
            parts.append(f'<text x="{x + 4:.1f}" y="{y + _SQUARE - 5:.1f}" font-size="10" fill="#5a4632">{cell}</text>')
            continue
        symbol = chess.Piece.from_symbol(piece.letter).unicode_symbol(invert_color=True)
        parts.append(
            f'<text x="{x + _SQUARE / 2:.1f}" y="{y + _SQUARE * 0.78:.1f}" text-anchor="middle" font-size="36" '
            f'fill="{_INK[piece.side]}" stroke="{_EDGE[piece.side]}" stroke-width="1">{symbol}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
