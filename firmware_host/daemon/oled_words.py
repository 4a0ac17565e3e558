"""Words that fit the OLED: how wide a text is drawn, and the ways a screen's lines give
way when they are too many or too long. Pure: measured with the fonts the driver
(``hardware/display.py``) draws with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from luma.core.legacy import textsize

from hardware.display import FOOTER_FONT, LINE_FONT, LINE_WIDTH, WIDTH

# What hardware/display.py draws with (its fonts, and the width of a line: a line wider
# than that it cuts short with ".."), measured here so that nothing is cut.
MAX_LINES = 3  # below the headline, above the footer
MAX_HEADLINE_WIDTH = WIDTH  # at 8 pixels; the driver doubles it when it fits


def text_width(text: str, *, footer: bool = False) -> int:
    """How wide ``text`` is drawn on the OLED, in pixels: as a line, or in the footer."""
    return int(textsize(text, font=FOOTER_FONT if footer else LINE_FONT)[0])


def fits(text: str, *, footer: bool = False) -> bool:
    """Whether ``text`` is drawn whole on the OLED, as a line or in the footer.

    >>> fits("cuckoo captured"), fits("cuckoo captured (2)")
    (True, False)
    """
    return text_width(text, footer=footer) <= LINE_WIDTH


def wrapped(text: str) -> tuple[str, ...] | None:
    """``text`` on one line if it fits, else on two, broken between words where the
    longer of the two is shortest; None if it fits on neither.

    >>> wrapped("lift a piece to move it")
    ('lift a piece', 'to move it')
    """
    if fits(text):
        return (text,)
    words = text.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    whole = [pair for pair in splits if fits(pair[0]) and fits(pair[1])]
    if not whole:
        return None
    return min(whole, key=lambda pair: max(text_width(pair[0]), text_width(pair[1])))


def listed(prefix: str, items: Sequence[str], *, footer: bool = False) -> str:
    """``prefix`` and ``items`` on one line, as many items as fit, then how many are
    left out (``+3``).

    >>> listed("faulty:", ["a1", "b1"], footer=True)
    'faulty: a1 b1'
    >>> listed("missed", [f"a{n}xb{n}" for n in range(1, 9)])
    'missed a1xb1 +7'
    """

    def line(shown: int) -> str:
        rest = len(items) - shown
        return " ".join([prefix, *items[:shown], *([f"+{rest}"] if rest else [])]).strip()

    if fits(line(len(items)), footer=footer):
        return line(len(items))
    # Grown from the front rather than cut from the back: a line holds a few items of a
    # long list (34 cells to fill), and each try is measured.
    best = line(0) if fits(line(0), footer=footer) else ""
    for shown in range(1, len(items)):
        if not fits(line(shown), footer=footer):
            break
        best = line(shown)
    return best or (prefix if fits(prefix, footer=footer) else "")


def first_fitting(candidates: Sequence[str], *, footer: bool = False) -> str:
    """The first of ``candidates`` that fits, or the last one's words as :func:`listed`."""
    for text in candidates:
        if fits(text, footer=footer):
            return text
    first, *rest = candidates[-1].split(" ")
    return listed(first, rest, footer=footer)


@dataclass(frozen=True)
class Block:
    """Some lines of a screen, and how they may give way when the screen is full:
    ``options`` are the ways to say it, most wanted first, each with fewer lines than
    the one before (an empty one: it may go). ``rank`` 0 gives way last."""

    options: tuple[tuple[str, ...], ...]
    rank: int = 0

    @classmethod
    def of(cls, *texts: str, rank: int = 0, optional: bool = False) -> Block:
        """The first of ``texts`` that fits on one line or two (:func:`wrapped`), then the
        shorter ways among the others, then nothing if ``optional``."""
        options: list[tuple[str, ...]] = []
        for text in texts:
            lines = wrapped(text)
            if lines is not None and (not options or len(lines) < len(options[-1])):
                options.append(lines)
        if optional or not options:
            options.append(())
        return cls(tuple(options), rank)


def arranged(blocks: Sequence[Block], limit: int = MAX_LINES) -> tuple[str, ...]:
    """The blocks' lines, in order, within ``limit`` lines: while there are too many,
    the block that gives way first (the highest rank, the last of equals) takes its
    next, shorter option.

    >>> arranged([Block.of("to move"), Block.of("lift a piece to move it"), Block.of("hint", rank=1, optional=True)])
    ('to move', 'lift a piece', 'to move it')
    """
    chosen = [0] * len(blocks)
    order = sorted(range(len(blocks)), key=lambda i: (-blocks[i].rank, -i))

    def count() -> int:
        return sum(len(block.options[i]) for block, i in zip(blocks, chosen, strict=True))

    while count() > limit:
        shrinkable = [i for i in order if chosen[i] + 1 < len(blocks[i].options)]
        if not shrinkable:
            break
        chosen[shrinkable[0]] += 1
    lines = [line for block, i in zip(blocks, chosen, strict=True) for line in block.options[i]]
    return tuple(lines[:limit])


def strike_lines(words: str) -> tuple[str, ...]:
    """A strike's announcement (``colonel strikes major: major removed``) as OLED lines:
    what struck what, then the result, each on one line or two; the result alone if
    both do not fit in :data:`MAX_LINES`.

    >>> strike_lines("colonel strikes major: major removed")
    ('colonel', 'strikes major', 'major removed')
    >>> strike_lines("lieutenant strikes lieutenant: both removed")
    ('lieutenant', 'strikes lieutenant', 'both removed')
    """
    what, _, result = words.partition(": ")
    lines = [line for part in (what, result) if part for line in (wrapped(part) or (part,))]
    if len(lines) <= MAX_LINES:
        return tuple(lines)
    return wrapped(result) or (result,)
