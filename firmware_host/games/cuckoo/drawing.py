"""Pictures of the nest: an SVG for the docs and the wiring guide, and a text diagram
for the terminal. Both are laid out from the cells' hex coordinates, so a custom nest
draws as it is printed. And the pieces as the web page draws them (``PAGE_DRAWINGS``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape  # (xml.sax.saxutils would load urllib, http and ssl at start-up)
from typing import Any

from firmware_host.games.base import Piece
from firmware_host.games.cuckoo.rules import Move, Nest, Position, Side

_CELL_SIZE = 34.0  # centre to corner, in SVG units
_COLOURS = {Side.RED: "#c62828", Side.BLUE: "#1565c0"}
_HOME_FILL = {Side.RED: "#f8d0d0", Side.BLUE: "#d0e0f8"}


def _star(tips: int, outer: float, inner: float) -> list[list[float]]:
    """A star's corners, in units of a cell's radius: its tips to the sides, not down, so
    that the cell's name below the piece stays visible."""
    corners = []
    for k in range(2 * tips):
        radius, angle = (outer if k % 2 == 0 else inner), math.pi * k / tips
        corners.append([round(radius * math.cos(angle), 3) + 0.0, round(radius * math.sin(angle), 3) + 0.0])  # no -0.0
    return corners


PAGE_DRAWINGS: dict[str, list[dict[str, Any]]] = {
    "egg": [
        {
            "kind": "path",
            "d": [
                ["M", 0, -0.64],
                ["C", 0.36, -0.64, 0.52, 0.02, 0.52, 0.2],
                ["C", 0.52, 0.48, 0.3, 0.62, 0, 0.62],
                ["C", -0.3, 0.62, -0.52, 0.48, -0.52, 0.2],
                ["C", -0.52, 0.02, -0.36, -0.64, 0, -0.64],
                ["Z"],
            ],
        }
    ],
    "diamond": [{"kind": "rect", "x": -0.45, "y": -0.45, "width": 0.9, "height": 0.9, "rx": 0.12, "rotate": 45}],
    "star": [{"kind": "polygon", "points": _star(6, 0.76, 0.56)}],
}
"""Each shape of piece (``PIECE_SHAPES``) as the web page draws it: the drawing of each
piece in :meth:`~firmware_host.games.base.GamePictures.for_page`, SVG parts in units of a cell's
radius around its centre, y down (``firmware_host/web/page/pieces.js`` says the parts).
An egg-shaped egg, a diamond for a warbler, a six-pointed badge for the cuckoo."""


def _centre(nest: Nest, cell: str) -> tuple[float, float]:
    """Pointy-top hex centre; north (blue's side) up."""
    q, r = nest.coordinates(cell)
    return _CELL_SIZE * math.sqrt(3) * (q + r / 2), -_CELL_SIZE * 1.5 * r


def nest_svg(nest: Nest, pieces: Mapping[str, Piece] | None = None) -> str:
    """The nest as an SVG document: every cell with its name, the homebases shaded in
    their side's colour, and ``pieces`` (each drawn by its ``side`` and ``letter``) if
    given."""
    centres = {cell: _centre(nest, cell) for cell in nest.cells}
    margin = _CELL_SIZE * 1.2
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    left, top = min(xs) - margin, min(ys) - margin - 24
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin + 96
    home_of = {cell: side for side in Side for cell in nest.homebases(side)}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">',
        f"<title>{escape(nest.name, quote=False)}</title>",
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="white"/>',
        f'<text x="{(min(xs) + max(xs)) / 2:.1f}" y="{top + 20:.1f}" text-anchor="middle" font-size="16" '
        f'fill="{_COLOURS[Side.BLUE]}">blue (north)</text>',
    ]
    for cell, (x, y) in centres.items():
        corners = " ".join(
            f"{x + _CELL_SIZE * math.cos(math.radians(30 + 60 * k)):.1f},"
            f"{y + _CELL_SIZE * math.sin(math.radians(30 + 60 * k)):.1f}"
            for k in range(6)
        )
        side = home_of.get(cell)
        fill = _HOME_FILL[side] if side else "#fdf6e3"
        stroke = f'stroke="{_COLOURS[side]}" stroke-width="3"' if side else 'stroke="#8d7b5a" stroke-width="1.5"'
        kind = f' class="homebase {side.label}"' if side else ' class="cell"'
        parts.append(f'<polygon{kind} data-cell="{escape(cell)}" points="{corners}" fill="{fill}" {stroke}/>')
        piece = (pieces or {}).get(cell)
        if piece is not None:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_CELL_SIZE * 0.55:.1f}" fill="{_COLOURS[piece.side]}"/>'
                f'<text x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" font-size="17" font-weight="bold" '
                f'fill="white">{piece.letter}</text>'
            )
        label_y = y + _CELL_SIZE * 0.82 if piece else y + 5
        label_size = 11 if piece else 14
        parts.append(
            f'<text x="{x:.1f}" y="{label_y:.1f}" text-anchor="middle" font-size="{label_size}" '
            f'fill="#333">{escape(cell, quote=False)}</text>'
        )
    bottom = max(ys) + margin
    parts.append(
        f'<text x="{(min(xs) + max(xs)) / 2:.1f}" y="{bottom + 4:.1f}" text-anchor="middle" font-size="16" '
        f'fill="{_COLOURS[Side.RED]}">red (south)</text>'
    )
    for k, side in enumerate(Side):
        x, legend_y = min(xs) - _CELL_SIZE / 2, bottom + 34 + 26 * k
        parts.append(
            f'<rect x="{x:.1f}" y="{legend_y - 14:.1f}" width="18" height="18" fill="{_HOME_FILL[side]}" '
            f'stroke="{_COLOURS[side]}" stroke-width="3"/>'
            f'<text x="{x + 26:.1f}" y="{legend_y:.1f}" font-size="14">{side.label} homebase</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def move_picture_svg(position: Position, moves: tuple[Move, ...]) -> str:
    """A small picture of ``moves`` from ``position``, for the page's How to play: the
    cells the moves cross and their neighbours, the pieces on them, an arrow for each
    move (a capture's ends in a ring round the piece it takes)."""
    nest = position.nest
    crossed: set[str] = set()
    for move in moves:
        assert move.origin is not None and move.target is not None, "a pass has no picture"
        over = nest.between(move.origin, move.target)  # a double step's or a long capture's middle cell
        crossed |= {move.origin, move.target} | ({over} if over is not None else set())
    shown = {cell for cell in nest.cells if any(nest.distance(cell, other) <= 1 for other in crossed)}
    centres = {cell: _centre(nest, cell) for cell in nest.cells if cell in shown}
    xs, ys = [x for x, _ in centres.values()], [y for _, y in centres.values()]
    left, top = min(xs) - _CELL_SIZE, min(ys) - _CELL_SIZE
    width, height = max(xs) - min(xs) + 2 * _CELL_SIZE, max(ys) - min(ys) + 2 * _CELL_SIZE
    home_of = {cell: side for side in Side for cell in nest.homebases(side)}
    pieces = position.pieces()
    words = ", ".join(str(move) for move in moves)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width * 0.75:.0f}" height="{height * 0.75:.0f}" font-family="sans-serif" role="img">',
        f"<title>{escape(words, quote=False)}</title>",
        '<defs><marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="3.5" markerHeight="3.5" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#2e7d32"/></marker></defs>',
    ]
    for cell, (x, y) in centres.items():
        corners = " ".join(
            f"{x + _CELL_SIZE * math.cos(math.radians(30 + 60 * k)):.1f},"
            f"{y + _CELL_SIZE * math.sin(math.radians(30 + 60 * k)):.1f}"
            for k in range(6)
        )
        side = home_of.get(cell)
        fill = _HOME_FILL[side] if side else "#fdf6e3"
        parts.append(f'<polygon points="{corners}" fill="{fill}" stroke="#8d7b5a" stroke-width="1.5"/>')
        piece = pieces.get(cell)
        if piece is not None:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_CELL_SIZE * 0.55:.1f}" fill="{_COLOURS[piece.side]}"/>'
                f'<text x="{x:.1f}" y="{y + 6:.1f}" text-anchor="middle" font-size="17" font-weight="bold" '
                f'fill="white">{piece.letter}</text>'
            )
        else:
            parts.append(
                f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="12" fill="#8d7b5a">'
                f"{escape(cell, quote=False)}</text>"
            )
    for move in moves:
        assert move.origin is not None and move.target is not None
        (x0, y0), (x1, y1) = centres[move.origin], centres[move.target]
        length = math.hypot(x1 - x0, y1 - y0)
        # From the piece's edge to the target's: the arrow never hides a letter.
        start, end = _CELL_SIZE * 0.55 / length, 1 - _CELL_SIZE * (0.62 if move.is_capture else 0.15) / length
        parts.append(
            f'<line x1="{x0 + (x1 - x0) * start:.1f}" y1="{y0 + (y1 - y0) * start:.1f}" '
            f'x2="{x0 + (x1 - x0) * end:.1f}" y2="{y0 + (y1 - y0) * end:.1f}" stroke="#2e7d32" '
            'stroke-width="6" marker-end="url(#head)"/>'
        )
        if move.is_capture:
            parts.append(
                f'<circle cx="{x1:.1f}" cy="{y1:.1f}" r="{_CELL_SIZE * 0.62:.1f}" fill="none" '
                'stroke="#2e7d32" stroke-width="4" stroke-dasharray="6 4"/>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def text_diagram(position: Position) -> str:
    """The position as text, north (blue) at the top: each row labelled with its first
    and last cell, pieces as their letters, empty cells as ``.``, homebases as ``_``."""
    nest = position.nest
    pieces = position.pieces()
    homebases = nest.homebases(Side.RED) | nest.homebases(Side.BLUE)
    # Doubled columns: a cell's centre sits at 2q + r half-cells, one character each.
    column = {cell: 2 * nest.coordinates(cell)[0] + nest.coordinates(cell)[1] for cell in nest.cells}
    first = min(column.values())
    lines = []
    for row in reversed(nest.rows):
        chars = [" "] * (max(column.values()) - first + 1)
        for cell in row:
            piece = pieces.get(cell)
            chars[column[cell] - first] = piece.letter if piece else "_" if cell in homebases else "."
        lines.append(f"{row[0]:>4} {''.join(chars).rstrip():<{len(chars)}} {row[-1]}")
    return "\n".join(lines)
