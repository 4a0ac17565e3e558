"""The base class a game derives from, as python-chess's variants derive from one
``Board``: it gives the members every game has in the same way (its board, its lineups
read from its board file, the outcomes of a resignation and of a loss on time, perft by
the :class:`~firmware_host.games.base.Position` protocol, the rule broken in words, a
legend, its folder's files) and says None for each capability, so that a game writes
only what differs.

A third game writes, in ``firmware_host/games/<name>/__init__.py``, a class deriving
from ``BaseGame[its board, its position, its outcome]`` with

- ``name`` (its folder's), ``title``, ``not_your_turn`` (its rule for touching the
  other side's pieces), ``RULE_WORDS`` (its rules in a few words), ``computer_levels``;
- its positions and moves: :meth:`start`, :meth:`read_position`, :meth:`read_move`,
  :meth:`move`;
- its outcomes as the record keeps them (:meth:`outcome_record`,
  :meth:`outcome_from_record`) and in words (:meth:`outcome_words`);
- its pictures (:meth:`diagram`, :meth:`picture`, :meth:`for_page`) and its computer
  (:meth:`computer`);

and a ``load(board)`` function returning it, with its board file in ``boards/``. What
it has besides (set-ups made by the players, hidden pieces, announced captures) it says
by overriding :attr:`setups`, :attr:`hidden` or :attr:`announcer`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import ClassVar, Generic, Protocol, TypeVar

from firmware_host.games.assets import GameAssets
from firmware_host.games.base import (
    AGREED_DRAW,
    TIME_LOSS,
    AnnouncesCaptures,
    Board,
    GameOf,
    HiddenPieces,
    Move,
    Outcome,
    Piece,
    PlayersSetUp,
    Position,
    Side,
    perft,
)


class StartingLineup(Protocol):
    """A lineup of a board file: the pieces it puts on the board, by cell."""

    @property
    def pieces(self) -> Mapping[str, Piece]: ...


class BoardWithLineups(Board, Protocol):
    """A board whose file names the lineups a game starts from."""

    @property
    def lineup_names(self) -> tuple[str, ...]:
        """The lineups, in the board file's order."""
        ...

    @property
    def default_lineup(self) -> str:
        """The lineup a game starts from unless another is named."""
        ...

    def lineup(self, name: str) -> StartingLineup:
        """The lineup called ``name``; raises a :class:`~firmware_host.errors.NestrefError`
        naming the board's lineups if there is none."""
        ...


BoardT = TypeVar("BoardT", bound=BoardWithLineups)
PositionT = TypeVar("PositionT", bound=Position)
OutcomeT = TypeVar("OutcomeT", bound=Outcome)


class BaseGame(GameOf[PositionT, OutcomeT], Generic[BoardT, PositionT, OutcomeT]):
    """A game on one board of its own kind (``BoardT``), with its own positions
    (``PositionT``) and outcomes (``OutcomeT``): the hooks every game has, with the
    defaults most games keep. mypy checks a game's overrides against these types, and
    the game against :class:`~firmware_host.games.base.GameOf`."""

    name: str
    title: str
    not_your_turn: Hashable
    RULE_WORDS: ClassVar[Mapping[Hashable, str]] = {}
    """The rules a refused move may break, in a few words for the OLED (:meth:`rule_words`)."""
    UNKNOWN_RULE_WORDS: ClassVar[str] = "not allowed"

    def __init__(self, board: BoardT) -> None:
        self._board = board

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._board.name!r})"

    @property
    def board(self) -> BoardT:
        return self._board

    @property
    def assets(self) -> GameAssets:
        """The files of the game's folder, the one named as the game."""
        return GameAssets.of(self.name)

    # -- lineups: the board file's --------------------------------------------------------

    @property
    def lineups(self) -> tuple[str, ...]:
        """The board file's lineups, its default first."""
        default = self._board.default_lineup
        return (default, *(name for name in self._board.lineup_names if name != default))

    def check_lineup(self, lineup: str) -> str:
        self._board.lineup(lineup)
        return lineup

    def lineup_pieces(self, lineup: str) -> Mapping[str, Piece]:
        return self._board.lineup(lineup).pieces

    # -- positions and moves: the game's own -----------------------------------------------

    @abstractmethod
    def start(self, lineup: str, turn: Side) -> PositionT: ...

    @abstractmethod
    def read_position(self, text: str) -> PositionT: ...

    def default_choice(self, options: Sequence[Move]) -> Move | None:
        """None: where the switches cannot tell moves apart, the players say which."""
        return None

    def perft(self, position: PositionT, depth: int) -> int:
        """By the position protocol (:func:`~firmware_host.games.base.perft`); a game may
        count faster on its own structures."""
        return perft(position, depth)

    # -- outcomes ---------------------------------------------------------------------------

    @abstractmethod
    def outcome_from_record(self, result: str, how: str | None) -> OutcomeT: ...

    def resignation(self, resigning: Side) -> OutcomeT:
        """The outcome the record keeps as the other side's win with no ``how``."""
        return self.outcome_from_record(resigning.opponent.label, None)

    def time_loss(self, flagged: Side) -> OutcomeT:
        """The outcome the record keeps as the other side's win by ``time``
        (:data:`~firmware_host.games.base.TIME_LOSS`)."""
        return self.outcome_from_record(flagged.opponent.label, TIME_LOSS)

    def agreed_draw(self) -> OutcomeT:
        """The outcome the record keeps as a draw by ``agreed``
        (:data:`~firmware_host.games.base.AGREED_DRAW`)."""
        return self.outcome_from_record("draw", AGREED_DRAW)

    def outcome_cell(self, position: PositionT, outcome: OutcomeT) -> str | None:
        """None: the last move's target says how the game was won."""
        return None

    # -- words ------------------------------------------------------------------------------

    def rule_words(self, rule: Hashable) -> str:
        """The rule's words in :attr:`RULE_WORDS`, or :attr:`UNKNOWN_RULE_WORDS`."""
        return self.RULE_WORDS.get(rule, self.UNKNOWN_RULE_WORDS)

    def legend(self) -> str:
        """The pieces of the page (:meth:`for_page`) by side, in their order in the box:
        ``Pieces: C W E red cuckoo, warbler, egg; c w e blue cuckoo, warbler, egg.``"""
        pieces = sorted(self.for_page()["pieces"].items(), key=lambda item: item[1]["order"])
        sides = []
        for side in Side:
            own = [(letter, piece["name"]) for letter, piece in pieces if piece["side"] == side.label]
            letters = " ".join(letter for letter, _ in own)
            sides.append(f"{letters} {side.label} {', '.join(name for _, name in own)}")
        return f"Pieces: {'; '.join(sides)}."

    # -- capabilities: none unless the game says so ---------------------------------------------

    @property
    def setups(self) -> PlayersSetUp | None:
        return None

    @property
    def hidden(self) -> HiddenPieces | None:
        return None

    @property
    def announcer(self) -> AnnouncesCaptures | None:
        return None
