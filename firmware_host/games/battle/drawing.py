"""Pictures of the field: a text diagram for the terminal and an SVG for the docs, both
drawing what they are given; the game hands them what a spectator may see. And the
pieces as the web page draws them (``PAGE_DRAWINGS``)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape  # (xml.sax.saxutils would load urllib, http and ssl at start-up)
from typing import Any

from firmware_host.games.base import Piece, Side
from firmware_host.games.battle.field import Field

_SQUARE = 48.0  # a square's side, in SVG units
_COLOURS = {Side.RED: "#c62828", Side.BLUE: "#1565c0"}
_HOME_FILL = {Side.RED: "#f8e0e0", Side.BLUE: "#e0e8f8"}
_LAKE_FILL = "#7fb3d5"

PAGE_DRAWINGS: dict[str, list[dict[str, Any]]] = {
    "block": [{"kind": "rect", "x": -0.56, "y": -0.56, "width": 1.12, "height": 1.12, "rx": 0.14}],
    "flag": [
        {
            "kind": "path",
            "d": [["M", -0.5, 0.6], ["L", -0.5, -0.6], ["L", 0.6, -0.3], ["L", -0.3, 0.05], ["L", -0.3, 0.6], ["Z"]],
        }
    ],
    "bomb": [{"kind": "circle", "r": 0.5}],
}
"""Each shape of piece as the web page draws it: the drawing of each piece in
:meth:`~firmware_host.games.base.GamePictures.for_page`, SVG parts in units of a cell's radius
around its centre, y down (``firmware_host/web/page/pieces.js`` says the parts). A block
for a piece whose rank is not shown and for most ranks, a flag, a bomb."""


def text_diagram(field: Field, letters: Mapping[str, str]) -> str:
    """The field as text, north (blue) at the top: the columns' letters above and below,
    each row's number at both ends; a piece as its letter, ``.`` an empty square, ``~``
    a lake."""
    columns = "    " + " ".join(chr(ord("a") + x) for x in range(field.columns))
    lines = [columns]
    for number in range(field.rows, 0, -1):
        squares = field.row_squares(number)
        row = " ".join("~" if field.is_lake(square) else letters.get(square, ".") for square in squares)
        lines.append(f"{number:>3} {row} {number}")
    lines.append(columns)
    return "\n".join(lines)


def field_svg(field: Field, pieces: Mapping[str, Piece] | None = None) -> str:
    """The field as an SVG document: every square with its name, the set-up rows tinted
    in their side's colour, the lakes, and ``pieces`` (each drawn by its ``letter`` and
    ``side``) if given."""
    width, height = field.columns * _SQUARE, field.rows * _SQUARE
    margin = 30.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-margin:.1f} {-margin:.1f} {width + 2 * margin:.1f} '
        f'{height + 2 * margin:.1f}" width="{width + 2 * margin:.0f}" height="{height + 2 * margin:.0f}" '
        'font-family="sans-serif">',
        f"<title>{escape(field.name, quote=False)}</title>",
        f'<rect x="{-margin:.1f}" y="{-margin:.1f}" width="{width + 2 * margin:.1f}" '
        f'height="{height + 2 * margin:.1f}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="{-10:.1f}" text-anchor="middle" font-size="15" '
        f'fill="{_COLOURS[Side.BLUE]}">blue (north)</text>',
        f'<text x="{width / 2:.1f}" y="{height + 22:.1f}" text-anchor="middle" font-size="15" '
        f'fill="{_COLOURS[Side.RED]}">red (south)</text>',
    ]
    for number in range(field.rows, 0, -1):
        for square in field.row_squares(number):
            column, row = field.coordinates(square)
            x, y = column * _SQUARE, (field.rows - 1 - row) * _SQUARE
            if field.is_lake(square):
                fill, kind = _LAKE_FILL, "lake"
            else:
                home = field.home_of(square)
                fill, kind = (_HOME_FILL[home], f"cell home-{home.label}") if home else ("#fdf6e3", "cell")
            parts.append(
                f'<rect class="{kind}" data-cell="{escape(square)}" x="{x:.1f}" y="{y:.1f}" width="{_SQUARE:.1f}" '
                f'height="{_SQUARE:.1f}" fill="{fill}" stroke="#8d7b5a" stroke-width="1"/>'
            )
            piece = None if pieces is None else pieces.get(square)
            if piece is not None:
                inset = _SQUARE * 0.14
                parts.append(
                    f'<rect x="{x + inset:.1f}" y="{y + inset:.1f}" width="{_SQUARE - 2 * inset:.1f}" '
                    f'height="{_SQUARE - 2 * inset:.1f}" rx="5" fill="{_COLOURS[piece.side]}"/>'
                    f'<text x="{x + _SQUARE / 2:.1f}" y="{y + _SQUARE / 2 + 6:.1f}" text-anchor="middle" '
                    f'font-size="17" font-weight="bold" fill="white">{escape(piece.letter, quote=False)}</text>'
                )
            elif not field.is_lake(square):
                parts.append(
                    f'<text x="{x + _SQUARE / 2:.1f}" y="{y + _SQUARE / 2 + 4:.1f}" text-anchor="middle" '
                    f'font-size="12" fill="#666">{escape(square, quote=False)}</text>'
                )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
