"""A piezo on a GPIO pin, playing short tunes of (frequency, duration) notes.

Two kinds, behind one :class:`Sounder` interface:

- :class:`TonalSounder`, a passive piezo driven by gpiozero's ``TonalBuzzer``: the pin
  is switched at each note's frequency (software PWM), so tunes have pitch;
- :class:`BeepSounder`, an active buzzer (one with its own oscillator) on gpiozero's
  ``Buzzer``: on for a note, off for a rest; the frequencies are not heard.

As with the lights, the daemon's loop drives them with the time passed in
(:meth:`Sounder.refresh`), rather than gpiozero's threads: a tune is a schedule, tests
set the time instead of waiting, and nothing plays on after the loop stops. A driver
knows no game: what each tune means is the daemon's (``firmware_host.daemon.tunes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

Note = tuple[float | None, int]  # (frequency in Hz, or None for a rest; duration in ms)
Tune = Sequence[Note]

LOWEST_HZ = 220.0  # A3 ... A7: a small piezo is loudest around 2-4 kHz, and quiet under A3
HIGHEST_HZ = 3520.0


class Sounder(Protocol):
    """Plays one tune at a time; a new tune cuts the one playing."""

    def play(self, tune: Tune, now: float) -> None:
        """Start ``tune`` at ``now`` (seconds). Raises ``ValueError`` for a note it
        cannot play, before playing any."""

    def refresh(self, now: float) -> bool:
        """Sound the note due at ``now``; whether a tune is still playing."""

    def off(self) -> None:
        """Silence, at once."""

    def close(self) -> None:
        """Silence, and the pin released."""


class _Schedule:
    """A tune laid out in time: which note sounds at a given moment."""

    def __init__(self) -> None:
        self.notes: list[tuple[float, float | None]] = []  # (end in seconds, frequency)

    def start(self, tune: Tune, now: float) -> None:
        notes = []
        elapsed_ms = 0  # whole ms, so that a note ends where its durations add up to, not a float's error off
        for index, (frequency, duration_ms) in enumerate(tune):
            if not isinstance(duration_ms, int) or isinstance(duration_ms, bool) or duration_ms <= 0:
                raise ValueError(
                    f"note {index + 1} of the tune: its duration must be a whole number of ms, not {duration_ms!r}"
                )
            elapsed_ms += duration_ms
            notes.append((now + elapsed_ms / 1000, frequency))
        self.notes = notes

    def due(self, now: float) -> tuple[bool, float | None]:
        """Whether the tune still plays at ``now``, and the note then (None: a rest)."""
        if not self.notes:  # asked at every turn of the loop: nothing playing is the rule
            return False, None
        for end, frequency in self.notes:
            if now < end:
                return True, frequency
        self.notes = []
        return False, None


class TonalSounder:
    """A passive piezo on ``pin`` (BCM) through gpiozero's ``TonalBuzzer``; its notes
    must lie between :data:`LOWEST_HZ` and :data:`HIGHEST_HZ`."""

    def __init__(self, pin: int, *, pin_factory: Factory) -> None:
        # A5 with two octaves either side: A3 to A7, what the tunes use.
        self._buzzer = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=2, pin_factory=pin_factory)
        self._schedule = _Schedule()
        self._sounding: float | None = None

    def play(self, tune: Tune, now: float) -> None:
        for index, (frequency, _) in enumerate(tune):
            if frequency is not None and not LOWEST_HZ <= frequency <= HIGHEST_HZ:
                span = f"{LOWEST_HZ:g}-{HIGHEST_HZ:g} Hz"
                raise ValueError(f"note {index + 1} of the tune: {frequency} Hz is outside the piezo's {span}")
        self._schedule.start(tune, now)
        self.refresh(now)

    def refresh(self, now: float) -> bool:
        playing, frequency = self._schedule.due(now)
        if frequency != self._sounding:
            if frequency is None:
                self._buzzer.stop()
            else:
                self._buzzer.play(Tone.from_frequency(frequency))
            self._sounding = frequency
        return playing

    def off(self) -> None:
        self._schedule.notes = []
        self._buzzer.stop()
        self._sounding = None

    def close(self) -> None:
        self.off()
        self._buzzer.close()


class BeepSounder:
    """An active buzzer on ``pin`` (BCM) through gpiozero's ``Buzzer``: it sounds its
    own pitch for every note, and is silent for rests."""

    def __init__(self, pin: int, *, pin_factory: Factory) -> None:
        self._buzzer = Buzzer(pin, pin_factory=pin_factory)
        self._schedule = _Schedule()
        self._sounding = False

    def play(self, tune: Tune, now: float) -> None:
        self._schedule.start(tune, now)
        self.refresh(now)

    def refresh(self, now: float) -> bool:
        playing, frequency = self._schedule.due(now)
        sounding = frequency is not None
        if sounding != self._sounding:
            self._buzzer.value = sounding
            self._sounding = sounding
        return playing

    def off(self) -> None:
        self._schedule.notes = []
        self._buzzer.off()
        self._sounding = False

    def close(self) -> None:
        self.off()
        self._buzzer.close()
