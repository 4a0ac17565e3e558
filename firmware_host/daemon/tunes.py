"""The cues the nest sounds, as data: which events have one, and each cue's tune.

A tune is a few (note, ms) pairs, a note named as in music (``"E6"``, ``"C#5"``) or
``None`` for a rest; :func:`tune` turns it into the (frequency in Hz, ms) pairs the
buzzer driver (``hardware.buzzer``) and the page's Web Audio play. The cues differ in
shape as well as pitch, so that they can be told apart on an active buzzer, which
has a single pitch: one short beep for a move, two low ones for an illegal move, a
rising run for a win.

>>> tune(Cue.MOVE_ACCEPTED)
((1760.0, 40),)
>>> cue_for(MoveRefused(attempt=None, rule=None, reason="not a move"))
<Cue.ILLEGAL_MOVE: 'illegal move'>
"""

from __future__ import annotations

import re
from enum import Enum

from firmware_host.referee.signals import ComputerMove, GameOver, MoveAccepted, MoveRefused, Signal, TurnStarted

NoteName = tuple[str | None, int]  # (a note's name, or None for a rest; ms)
_NOTE = re.compile(r"([A-G])(#|b)?(-?\d)")
_SEMITONES = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}  # from A in the same octave


class Cue(Enum):
    """An event the nest has a sound for."""

    MOVE_ACCEPTED = "move accepted"  # off unless [sound] move_accepted = true
    ILLEGAL_MOVE = "illegal move"
    CAPTURE_COMPULSORY = "capture compulsory"
    OPPONENT_MOVED = "opponent moved"  # the computer or the remote opponent chose its move
    LOW_TIME = "low time"  # the side to move fell under its low-time mark (clocks.TimeControl.low_time_ms)
    GAME_WON = "game won"
    FLAG_FALL = "flag fall"
    LINK_LOST = "link lost"  # the remote opponent or the sensors' link dropped


TUNES: dict[Cue, tuple[NoteName, ...]] = {
    Cue.MOVE_ACCEPTED: (("A6", 40),),
    Cue.ILLEGAL_MOVE: (("A4", 150), (None, 60), ("A4", 250)),
    Cue.CAPTURE_COMPULSORY: (("E6", 80), (None, 40), ("E6", 80), (None, 40), ("E6", 80)),
    Cue.OPPONENT_MOVED: (("E6", 70), ("A6", 110)),
    Cue.LOW_TIME: (("A6", 30), (None, 120), ("A6", 30)),
    Cue.GAME_WON: (("C6", 120), ("E6", 120), ("G6", 120), ("C7", 360)),
    Cue.FLAG_FALL: (("A6", 600),),
    Cue.LINK_LOST: (("E6", 150), ("C6", 150), ("A5", 300)),
}


def frequency(note: str) -> float:
    """The frequency of a note in equal temperament, A4 at 440 Hz. Raises ``ValueError``
    for a name that is not a note.

    >>> frequency("A4"), frequency("C#5"), round(frequency("C6"), 1)
    (440.0, 554.3652619537442, 1046.5)
    """
    match = _NOTE.fullmatch(note)
    if match is None:
        raise ValueError(f"{note!r} is not a note (a letter A-G, maybe # or b, and an octave: E6, C#5)")
    letter, accidental, octave = match.groups()
    semitones = _SEMITONES[letter] + {"#": 1, "b": -1, None: 0}[accidental] + 12 * (int(octave) - 4)
    return 440.0 * 2 ** (semitones / 12)


def tune(cue: Cue) -> tuple[tuple[float | None, int], ...]:
    """``cue``'s tune as (Hz or None for a rest, ms) pairs."""
    return tuple((None if note is None else frequency(note), ms) for note, ms in TUNES[cue])


def tunes_as_json() -> dict[str, list[list[float | int | None]]]:
    """Every cue's tune by the cue's name, for the page's Web Audio."""
    return {cue.value: [[hz, ms] for hz, ms in tune(cue)] for cue in Cue}


def cue_for(signal: Signal, *, move_accepted: bool = False) -> Cue | None:
    """The cue a referee signal sounds, if any; ``move_accepted`` (``[sound]
    move_accepted``) sounds every accepted move. A game lost on time sounds the flag
    fall."""
    if isinstance(signal, MoveRefused):
        return Cue.ILLEGAL_MOVE
    if isinstance(signal, TurnStarted) and signal.captures and not signal.by_computer:
        return Cue.CAPTURE_COMPULSORY
    if isinstance(signal, ComputerMove):
        return Cue.OPPONENT_MOVED
    if isinstance(signal, GameOver) and signal.outcome.is_time_loss:
        return Cue.FLAG_FALL
    if isinstance(signal, GameOver) and signal.outcome.winner is not None:
        return Cue.GAME_WON
    if isinstance(signal, MoveAccepted) and move_accepted:
        return Cue.MOVE_ACCEPTED
    return None
