"""What every game nestref referees has, and the interface the rest of nestref reaches a
game through: the referee, the record, the screens, the web page, the command line.

A game is two sides, red and blue, moving pieces on a board's cells in turn; the
switches under the board feel only which cells hold a piece, so each move says what it
does to them (its :class:`Footprint`). A game's package provides a :class:`Game`, made
of a few smaller protocols: its rules (:class:`GameRules`: positions, lineups, moves,
how a game ends), its notation (:class:`GameNotation`: positions, moves and outcomes as
text and as the record keeps them), its words (:class:`GameWords`), its pictures
(:class:`GamePictures`), its computer opponent (:class:`GameComputer`), and what it has
besides (:class:`GameParts`: its folder's files, and the capabilities some games have,
None in the others). Each game is a folder beside this module (Operation Cuckoo's is
``cuckoo``), and writes only what differs from
:class:`~firmware_host.games.base_game.BaseGame`.

**Why the protocols are generic, and the rest of nestref is not.** A game's objects go
back only to the game that made them: a move it generated to the position it came
from, an outcome to its own words, a position to its own diagram. The methods that take
them back are typed by the game's own types, which each protocol takes as parameters
(``GameOf[Position, Outcome]``: contravariant, since they appear only where values come
back). A game's class is checked against them with its own types (Operation Cuckoo is
a ``GameOf[cuckoo.Position, cuckoo.Outcome]``, and mypy says so where its class is
defined), so a game that would take another's outcome fails the type check. The rest of
nestref holds *some* game, and naming its types would make every layer generic over
them; so it holds a :class:`Game`, which is ``GameOf[Any, Any]``: what a game hands out
is typed by the protocols here (a :class:`Position`, a :class:`Move`, an
:class:`Outcome`), and what goes back to it is the game's to check. The same holds for
:class:`Position` (``PositionOf[Move]``), :class:`Computer` (``ComputerOf[Input]``) and
the capabilities (:class:`PlayersSetUp`, :class:`AnnouncesCaptures`,
:class:`HiddenPieces`). ``Any`` is written only where a protocol is named for the rest
of nestref, and in the page's JSON values.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, NewType, Protocol, TypedDict, TypeVar, runtime_checkable

from firmware_host.errors import GameSetError, NotationError
from firmware_host.games.assets import GameAssets

# A game's own values, as they come back to it (see the module's docstring).
PositionT_contra = TypeVar("PositionT_contra", contravariant=True)
MoveT_contra = TypeVar("MoveT_contra", contravariant=True)
OutcomeT_contra = TypeVar("OutcomeT_contra", contravariant=True)
SetupT_contra = TypeVar("SetupT_contra", contravariant=True)
InputT_contra = TypeVar("InputT_contra", contravariant=True)


class Side(Enum):
    """One of the two players. The value is the letter the notations use for the side to
    move."""

    RED = "r"
    BLUE = "b"

    @property
    def opponent(self) -> Side:
        """The other side."""
        return Side.BLUE if self is Side.RED else Side.RED

    @property
    def label(self) -> str:
        """The side's name in messages: ``red`` or ``blue``."""
        return self.name.lower()

    @classmethod
    def from_text(cls, text: str) -> Side:
        """Read ``r``/``b`` or ``red``/``blue``.

        Raises :class:`NotationError` for anything else.

        >>> Side.from_text("blue")
        <Side.BLUE: 'b'>
        """
        for side in cls:
            if text in (side.value, side.label):
                return side
        raise NotationError(f"unknown side {text!r}: expected 'r', 'b', 'red' or 'blue'")


@dataclass(frozen=True, slots=True)
class Footprint:
    """What a move does to the board as its switches feel it: they tell only whether a
    cell holds a piece. The referee matches these against what the switches read, so
    it needs no knowledge of the game's shapes of moves.

    - ``empties``: cells that hold a piece before the move and none after it;
    - ``fills``: cells empty before and occupied after;
    - ``proofs``: cells occupied before and after, by another piece (a capture's
      target): each must read empty, however briefly, after the move began, or the
      move cannot be told from its piece held in the air;
    - ``passes``: cells a piece slid along the way crosses, occupied for a moment.
    """

    empties: frozenset[str] = frozenset()
    fills: frozenset[str] = frozenset()
    proofs: frozenset[str] = frozenset()
    passes: frozenset[str] = frozenset()

    @property
    def cells(self) -> frozenset[str]:
        """Every cell the move touches."""
        return self.empties | self.fills | self.proofs | self.passes


class Outcome(Protocol):
    """How a game ended: its winner (None: a draw), and whether the loser resigned."""

    @property
    def winner(self) -> Side | None: ...

    @property
    def is_resignation(self) -> bool: ...

    @property
    def is_time_loss(self) -> bool:
        """Whether the loser's clock ran out."""
        ...

    def to_text(self) -> str:
        """``red``, ``blue`` or ``draw``."""
        ...


class Piece(Protocol):
    """A piece, as the referee and the screens see it: whose it is, and its name."""

    @property
    def side(self) -> Side: ...

    @property
    def letter(self) -> str:
        """The piece in the game's notation."""
        ...

    @property
    def label(self) -> str:
        """The piece in messages: ``red egg``."""
        ...


class Move(Protocol):
    """A move: a piece from ``origin`` to ``target`` (a capture takes what ``target``
    holds), or a pass (no cells). Equal moves compare and hash equal."""

    @property
    def origin(self) -> str | None: ...

    @property
    def target(self) -> str | None: ...

    @property
    def is_capture(self) -> bool: ...

    @property
    def is_pass(self) -> bool: ...

    def to_text(self) -> str:
        """The move in the game's notation."""
        ...

    def __hash__(self) -> int: ...


@dataclass(frozen=True)
class IllegalMove:
    """Why a move is illegal: the rule it breaks (a value of the game's own, which its
    :meth:`GameWords.rule_words` names) and a sentence a player understands."""

    move: Move
    rule: Hashable
    reason: str

    def __str__(self) -> str:
        return f"illegal move {self.move.to_text()}: {self.reason}"


class PositionOf(Protocol[MoveT_contra]):
    """A position of a game being played: the pieces on the board, the side to move,
    and the moves that led here (so that they can be taken back). It takes back the
    moves of its own game (``MoveT_contra``)."""

    @property
    def board(self) -> Board: ...

    @property
    def turn(self) -> Side: ...

    @property
    def move_stack(self) -> tuple[Move, ...]: ...

    def pieces(self) -> Mapping[str, Piece]:
        """The pieces, by cell."""
        ...

    def legal_moves(self) -> Sequence[Move]:
        """The moves the side to move may make: empty when the game is over, a single
        pass when it has none but must let the other side move."""
        ...

    def lenient_moves(self) -> Sequence[Move]:
        """The moves a lenient referee lets stand besides the legal ones (a capture
        missed where capturing is compulsory, say); empty if the game has none."""
        ...

    def check_move(self, move: MoveT_contra, *, lenient: bool = False) -> IllegalMove | None:
        """Why ``move`` may not be played now, or None if it may."""
        ...

    def footprint(self, move: MoveT_contra) -> Footprint:
        """What ``move``, one of the legal or lenient moves, does to the switches."""
        ...

    def push(self, move: MoveT_contra, *, lenient: bool = False) -> Move:
        """Play ``move``; raises :class:`~firmware_host.errors.NestrefError` if it may not
        be played."""
        ...

    def pop(self) -> Move:
        """Take the last move back."""
        ...

    def copy(self) -> Position: ...

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def is_over(self) -> bool: ...

    def to_text(self) -> str:
        """The position in the game's notation; :meth:`GameNotation.read_position` reads it."""
        ...


class Position(PositionOf[Any], Protocol):
    """A position of some game, as the rest of nestref holds it (:class:`PositionOf`):
    the moves it takes back are the ones it handed out."""


@dataclass(frozen=True)
class GameSet:
    """The games of a set so far, as an immutable value: :meth:`record` returns the
    next one.

    The first side to win two games wins the set. A drawn game is replayed and does not
    count. The side that starts alternates from game to game, drawn games included: a
    replayed game is started by the other side.

    >>> from firmware_host.games import load_game
    >>> games = GameSet(first_starter=Side.BLUE)
    >>> games = games.record(load_game("cuckoo").outcome_from_record("red", "2"))
    >>> games.score, games.next_starter
    ((1, 0), <Side.RED: 'r'>)
    """

    WINS_NEEDED: ClassVar[int] = 2

    first_starter: Side = Side.RED
    """The side that starts the first game, chosen when the set begins."""
    outcomes: tuple[Outcome, ...] = ()
    """Every game played so far, draws included, in order."""

    def wins(self, side: Side) -> int:
        """The games ``side`` has won."""
        return sum(1 for outcome in self.outcomes if outcome.winner is side)

    @property
    def score(self) -> tuple[int, int]:
        """Games won, red's then blue's."""
        return self.wins(Side.RED), self.wins(Side.BLUE)

    @property
    def winner(self) -> Side | None:
        """The side that has won the set, or None while it goes on."""
        for side in Side:
            if self.wins(side) >= self.WINS_NEEDED:
                return side
        return None

    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def next_starter(self) -> Side:
        """The side that starts the next game (the set may already be over)."""
        return self.first_starter if len(self.outcomes) % 2 == 0 else self.first_starter.opponent

    def record(self, outcome: Outcome) -> GameSet:
        """The set after one more game ended with ``outcome``.

        Raises :class:`GameSetError` if the set is already decided.
        """
        if self.winner is not None:
            raise GameSetError(f"the set is over: {self.winner.label} has won it")
        return GameSet(self.first_starter, (*self.outcomes, outcome))


class Board(Protocol):
    """The cells a game is played on, by name, in reading order."""

    @property
    def name(self) -> str: ...

    @property
    def cells(self) -> tuple[str, ...]: ...

    def __contains__(self, cell: object) -> bool: ...

    def check_cell(self, cell: str) -> str:
        """``cell``, if it is one of the board's; raises :class:`NotationError` if not."""
        ...

    def index(self, cell: str) -> int:
        """The cell's place in reading order."""
        ...

    def distance(self, origin: str, target: str) -> int:
        """The steps between two cells, as a piece moves."""
        ...

    @property
    def cell_shape(self) -> str:
        """How the cells are cut: ``hex`` (pointy-top hexagons) or ``square``."""
        ...

    def centre(self, cell: str) -> tuple[float, float]:
        """The cell's centre on the table, in cell pitches (neighbouring centres one
        apart), x to the east, y to the north: what a builder lays the switches out by."""
        ...


@dataclass(frozen=True)
class ComputerLevel:
    """One level of a game's computer opponent: ``number`` from 1 (a beginner) up."""

    number: int
    name: str


@dataclass(frozen=True)
class ComputerChoice:
    """The computer's move, and what its search found, for the log and the command line
    (such as ``score``, ``depth``, ``nodes``, ``pv``), in order."""

    move: Move
    facts: Mapping[str, str]


class ComputerOf(Protocol[InputT_contra]):
    """A game's computer opponent. It sees what the players see: a game of hidden
    pieces gives it only the side's own view (:meth:`HiddenPieces.computer_input`), a
    game that hides nothing the position (``InputT_contra``)."""

    def choose(
        self, position: InputT_contra, level: int, *, clock: Callable[[], float], should_stop: Callable[[], bool]
    ) -> ComputerChoice:
        """The move for the side to move in ``position`` at ``level``; ``clock`` counts
        seconds for its time cap, ``should_stop`` is asked now and then to give up (the
        result is then not the level's)."""
        ...

    def analyse(
        self, position: InputT_contra, *, nodes: int | None, seconds: float | None, clock: Callable[[], float]
    ) -> ComputerChoice:
        """The best move found within ``nodes`` or ``seconds``, at full strength."""
        ...


class Computer(ComputerOf[Any], Protocol):
    """Some game's computer opponent, as the rest of nestref holds it (:class:`ComputerOf`)."""


class PageGame(TypedDict):
    """What the web page needs to draw a game, as JSON (:meth:`GamePictures.for_page`):
    its ``name`` and ``title``; the ``board`` (its ``name``, its ``shape``, such as
    ``hex``, and its ``cells``, each with its ``name``, its coordinates and the side whose
    home it is, if any); the ``pieces`` by letter (``side``, ``name``, ``shape`` of the
    drawing, its ``drawing``: SVG parts in units of a cell's radius, as
    ``web/page/pieces.js`` draws them; ``order`` in the box); and ``rules``, a few
    paragraphs of how to play. A game may add keys of its own (a TypedDict of its own
    deriving from this one); the values below the top are JSON, which the page reads."""

    name: str
    title: str
    board: dict[str, Any]
    pieces: dict[str, dict[str, Any]]
    rules: list[str]


class GameRules(Protocol[PositionT_contra]):
    """A game's rules: its board, the lineups it starts from, its positions and moves,
    and how a game ends other than on the board."""

    @property
    def board(self) -> Board: ...

    @property
    def lineups(self) -> tuple[str, ...]:
        """The names of the set-ups a game may start from (lineups), the usual first."""
        ...

    def check_lineup(self, lineup: str) -> str:
        """``lineup``, if it is one of :attr:`lineups`; raises a
        :class:`~firmware_host.errors.NestrefError` naming the known ones if not."""
        ...

    def lineup_pieces(self, lineup: str) -> Mapping[str, Piece]:
        """The pieces ``lineup`` puts on the board, by cell."""
        ...

    def start(self, lineup: str, turn: Side) -> Position:
        """The position of a game set up from ``lineup``, ``turn`` to move."""
        ...

    def move(self, origin: str, target: str, *, capture: bool) -> Move:
        """The move of a piece from ``origin`` to ``target``, legal or not: what the
        referee names a move it saw made."""
        ...

    def default_choice(self, options: Sequence[Move]) -> Move | None:
        """Of ``options``, legal moves the switches cannot tell apart (a pawn promoted to
        a queen or a knight), the one that stands unless a player answers otherwise; None
        if the players must say (the referee asks either way)."""
        ...

    @property
    def not_your_turn(self) -> Hashable:
        """The rule broken by touching the other side's pieces."""
        ...

    def resignation(self, resigning: Side) -> Outcome:
        """The outcome of a game ``resigning`` gave up."""
        ...

    def time_loss(self, flagged: Side) -> Outcome:
        """The outcome of a game whose clock ran out for ``flagged``: a loss on time
        (kept by the record as how ``time``)."""
        ...

    def agreed_draw(self) -> Outcome:
        """The outcome of a game the players agreed to draw (kept by the record as how
        ``agreed``), not one the rules drew."""
        ...

    def perft(self, position: PositionT_contra, depth: int) -> int:
        """The number of move sequences of length ``depth`` from ``position`` (a pass
        counts as a move, a finished game has none); ``position`` ends unchanged."""
        ...


class GameNotation(Protocol[OutcomeT_contra]):
    """A game's positions and moves as text, and its outcomes as the record keeps them."""

    def read_position(self, text: str) -> Position:
        """A position from the game's notation on this board. Raises a
        :class:`~firmware_host.errors.NestrefError` saying what is wrong."""
        ...

    def read_move(self, text: str) -> Move:
        """A move from the game's notation (checked against a position only when
        played). Raises a :class:`~firmware_host.errors.NestrefError`."""
        ...

    def outcome_record(self, outcome: OutcomeT_contra) -> tuple[str, str | None]:
        """How the record keeps ``outcome``: its result (``red``, ``blue``, ``draw``) and
        how it came, in the game's words (None for a resignation)."""
        ...

    def outcome_from_record(self, result: str, how: str | None) -> Outcome:
        """The outcome the record keeps as ``result`` and ``how``. Raises a
        :class:`~firmware_host.errors.NestrefError` for one it cannot read."""
        ...


class GameWords(Protocol[OutcomeT_contra]):
    """A game's words for people: its names, its pieces, the rules broken, the endings."""

    @property
    def name(self) -> str:
        """The game's name in configs and records, its folder's: ``cuckoo``."""
        ...

    @property
    def title(self) -> str:
        """The game's name for people: ``Operation Cuckoo``."""
        ...

    def legend(self) -> str:
        """The pieces' letters in the diagrams, in a sentence."""
        ...

    def rule_words(self, rule: Hashable) -> str:
        """The rule a refused move broke (an :attr:`IllegalMove.rule`), in a few words
        for the OLED."""
        ...

    def outcome_words(self, outcome: OutcomeT_contra) -> str:
        """Why the game ended, in a few words for the OLED: ``cuckoo captured (2)``."""
        ...


class GamePictures(Protocol[PositionT_contra, OutcomeT_contra]):
    """A game drawn: in the terminal, as an SVG, on the web page, on the lights."""

    def diagram(self, position: PositionT_contra) -> str:
        """The position as text for the terminal."""
        ...

    def picture(self, pieces: Mapping[str, Piece] | None = None) -> str:
        """The board as an SVG document, with ``pieces`` (drawn by their side and
        letter) if given."""
        ...

    def for_page(self) -> PageGame:
        """What the web page needs to draw the game (:class:`PageGame`)."""
        ...

    def outcome_cell(self, position: PositionT_contra, outcome: OutcomeT_contra) -> str | None:
        """The cell the lights show to say how the game was won (None: the cell of the
        last move's target)."""
        ...


class GameComputer(Protocol):
    """A game's computer opponent and its levels."""

    @property
    def computer_levels(self) -> tuple[ComputerLevel, ...]:
        """The computer opponent's levels, weakest first, numbered from 1."""
        ...

    def computer(self, seed: int) -> Computer:
        """A computer opponent; ``seed`` makes its choices repeatable."""
        ...


class GameParts(Protocol):
    """What a game has besides: the files its folder ships, and the capabilities a game
    may have, each None in a game without it (Operation Cuckoo has none). The rest of
    nestref asks these, never the game's class."""

    @property
    def assets(self) -> GameAssets:
        """The files the game's folder ships: its boards, its config defaults, its builds."""
        ...

    @property
    def setups(self) -> PlayersSetUp | None:
        """The game's start made by the players' own set-ups (:class:`PlayersSetUp`), or
        None if it starts from a lineup read off the nest."""
        ...

    @property
    def hidden(self) -> HiddenPieces | None:
        """What the game's pieces hide from the other side (:class:`HiddenPieces`), or
        None if it hides nothing."""
        ...

    @property
    def announcer(self) -> AnnouncesCaptures | None:
        """How the referee announces a capture's result the players cannot see
        (:class:`AnnouncesCaptures`), or None if the board shows it."""
        ...


class GameOf(
    GameRules[PositionT_contra],
    GameNotation[OutcomeT_contra],
    GameWords[OutcomeT_contra],
    GamePictures[PositionT_contra, OutcomeT_contra],
    GameComputer,
    GameParts,
    Protocol[PositionT_contra, OutcomeT_contra],
):
    """A game on one board, taking back its own positions (``PositionT_contra``) and
    outcomes (``OutcomeT_contra``): nothing outside the game's package knows its rules,
    notation or pieces but through this."""


class Game(GameOf[Any, Any], Protocol):
    """Some game on one board, as the rest of nestref holds it (:class:`GameOf`; the
    module's docstring says why ``Any``)."""


PublicText = NewType("PublicText", str)
"""A position's notation as everybody may know it: no hidden rank in it. Only a game
makes one (:func:`public_view`); a shared channel that takes it cannot be handed a
position's own :meth:`Position.to_text`, which holds every rank of a game that hides
them (mypy says so)."""

PublicLetter = NewType("PublicLetter", str)
"""A piece as everybody may see it, in the letters :meth:`GamePictures.for_page` draws: its rank
only where the rules showed it. Only a game makes one."""


@dataclass(frozen=True)
class PublicView:
    """A position as every shared channel may carry it (the OLED, the lights, the shared
    and spectators' pages, recordings, live boards, logs, sensor-log headers): the side
    to move, the pieces by cell in their public letters, the position's public notation.
    It cannot hold a hidden rank: its fields are types only a game makes, from what its
    rules have shown (:func:`public_view`)."""

    turn: Side
    letters: Mapping[str, PublicLetter]
    text: PublicText


@dataclass(frozen=True)
class SideView:
    """A position as one side's player may know it: its own pieces' ranks, the other
    side's only where shown. For that player's own screen alone: no shared channel takes
    one (it is not a :class:`PublicView`)."""

    side: Side
    letters: Mapping[str, str]


OWN_SETUPS = "own"
"""The lineup a record names for a game started from the players' own set-ups
(:class:`PlayersSetUp`) rather than from a lineup the referee reads off the nest."""


class SideSetup(Protocol):
    """One side's set-up made by its player: the cells its pieces stand on. What stands
    on each (a rank) stays inside the game's own value: the referee needs only the
    cells, to check the nest against them."""

    @property
    def side(self) -> Side: ...

    @property
    def cells(self) -> frozenset[str]:
        """The cells the set-up puts a piece on."""
        ...


class Placement(Protocol):
    """A side's set-up made on the nest one piece at a time, the game asking for each
    on that player's own screen ("place your marshal"): the cell that fills next holds
    the piece asked for. Immutable: :meth:`place` and :meth:`undo` return the next."""

    @property
    def side(self) -> Side: ...

    @property
    def cells(self) -> tuple[str, ...]:
        """The cells filled so far, in order."""
        ...

    def is_complete(self) -> bool: ...

    def place(self, cell: str) -> Placement:
        """The placement once ``cell`` filled; raises a
        :class:`~firmware_host.errors.NestrefError` for a cell it may not take."""
        ...

    def undo(self) -> Placement:
        """The placement without its last piece (lifted again)."""
        ...

    def setup(self) -> SideSetup:
        """The finished set-up; raises a :class:`~firmware_host.errors.NestrefError`
        while pieces are still to place."""
        ...

    def prompt(self) -> str:
        """What the placing player's own screen asks for next: private, it may name a
        hidden piece."""
        ...


class SetupCheck(Protocol):
    """The check after a side's set-up that the pieces on the nest are what the referee
    holds: its player lifts one piece at a time as its own screen asks ("lift your
    marshal"); the cell that opens must be one the set-up has that piece on. Immutable:
    :meth:`lift` returns the next."""

    @property
    def side(self) -> Side: ...

    @property
    def checked(self) -> tuple[str, ...]:
        """The cells lifted so far that held the piece asked for, in order."""
        ...

    @property
    def total(self) -> int:
        """The pieces to lift."""
        ...

    def is_complete(self) -> bool: ...

    def holds(self, cell: str) -> bool:
        """Whether a lift of ``cell`` now is the piece asked for."""
        ...

    def lift(self, cell: str) -> SetupCheck:
        """The check once ``cell`` was lifted as the piece asked for; raises a
        :class:`~firmware_host.errors.NestrefError` where the set-up has another piece."""
        ...

    def prompt(self) -> str:
        """What the checking player's own screen asks for next: private, it names a
        hidden piece."""
        ...


class PlayersSetUpOf(Protocol[SetupT_contra, PositionT_contra]):
    """A capability of a game (:attr:`GameParts.setups`): its start is made by the
    players, each side privately (pieces whose identity the opponent must not see), not
    read off the nest as a lineup. The referee learns each side's set-up through these
    methods alone, and never shows what it learns on a shared screen. It takes back its
    own set-ups (``SetupT_contra``) and positions (``PositionT_contra``)."""

    def setup_cells(self, side: Side) -> frozenset[str]:
        """The cells ``side`` may set up on."""
        ...

    def setup_size(self, side: Side) -> int:
        """The pieces a set-up of ``side`` puts on the board."""
        ...

    def read_setup(self, side: Side, text: str) -> SideSetup:
        """``side``'s set-up written as its player's screen sends it, checked; raises a
        :class:`~firmware_host.errors.NestrefError` saying what is wrong."""
        ...

    def guided_placement(self, side: Side, *, seed: int) -> Placement:
        """A placement of ``side``'s set-up with nothing placed yet, asking for the pieces
        in an order drawn with ``seed`` (random, so that the order in which cells fill,
        which everybody sees, says nothing of what stands on them)."""
        ...

    def setup_check(self, setup: SetupT_contra, *, seed: int) -> SetupCheck:
        """The check that the pieces on the nest are ``setup``'s (this game's own), the
        pieces asked for in an order drawn with ``seed``."""
        ...

    def start_from_setups(self, red: SetupT_contra, blue: SetupT_contra, turn: Side) -> Position:
        """The start of a game from each side's set-up (this game's own), ``turn`` to
        move; raises a :class:`~firmware_host.errors.NestrefError` for one the rules do
        not allow."""
        ...

    def public_text(self, position: PositionT_contra) -> str:
        """``position`` as everybody may know it (:meth:`HiddenPiecesOf.public_text`; kept
        here until the records' writer reads it from :attr:`GameParts.hidden`)."""
        ...


@runtime_checkable
class PlayersSetUp(PlayersSetUpOf[Any, Any], Protocol):
    """Some game's players' own set-ups, as the rest of nestref holds them
    (:class:`PlayersSetUpOf`)."""


@dataclass(frozen=True)
class CaptureAnnouncement:
    """How a capture ends, as the referee tells both players once the gesture shows it
    begun, before the nest shows it made: ``words`` to say (they may name what the
    capture revealed), the cells whose pieces leave the board (``removed``), and the
    cell the winner ends on (None: no piece is left there)."""

    move: Move
    words: str
    removed: tuple[str, ...]
    winner_on: str | None


class AnnouncesCapturesOf(Protocol[PositionT_contra, MoveT_contra]):
    """A capability of a game (:attr:`GameParts.announcer`) whose captures' results the
    players cannot see (the battle game's strikes, decided by hidden ranks): the referee
    announces each one, and lights the cells to act on."""

    def announce_capture(self, position: PositionT_contra, move: MoveT_contra) -> CaptureAnnouncement:
        """How the capture ``move``, legal in ``position``, ends."""
        ...


@runtime_checkable
class AnnouncesCaptures(AnnouncesCapturesOf[Any, Any], Protocol):
    """Some game's announcer of captures, as the rest of nestref holds it
    (:class:`AnnouncesCapturesOf`)."""


class HiddenPiecesOf(Protocol[PositionT_contra, SetupT_contra]):
    """A capability of a game (:attr:`GameParts.hidden`) whose pieces hide something
    from the other side (the battle game's ranks): what everybody and what one side may
    see of a position, and what its computer is handed. The shared screens (the OLED,
    the lights, the spectators' page) show only :func:`public_view`; a player's own
    screen :func:`side_view`. A game without it hides nothing."""

    def public_text(self, position: PositionT_contra) -> str:
        """``position`` as everybody may know it, in the game's notation: nothing hidden
        in it (what the shared screens and the spectators get)."""
        ...

    def letters_seen_by(self, position: PositionT_contra, side: Side) -> Mapping[str, str]:
        """The pieces of ``position`` by cell as ``side``'s player sees them: its own
        pieces' letters with their ranks, the other side's only where they are shown (the
        letters :meth:`GamePictures.for_page` draws)."""
        ...

    def public_letters(self, position: PositionT_contra) -> Mapping[str, str]:
        """The pieces of ``position`` by cell as everybody sees them: a rank only where
        it was shown (the letters :meth:`GamePictures.for_page` draws)."""
        ...

    def diagram_seen_by(self, position: PositionT_contra, side: Side) -> str:
        """``position`` as text as ``side``'s player sees it (its own ranks, the other
        side's only where shown): for that player alone, such as ``nestref play``'s."""
        ...

    def setup_letters(self, setup: SetupT_contra) -> Mapping[str, str]:
        """The pieces of one side's own set-up (:class:`SideSetup`, this game's) by cell,
        as its own player's screen draws them."""
        ...

    def computer_setup(self, side: Side, seed: int) -> SideSetup:
        """A set-up for a side the computer plays (no player's screen gives one), drawn
        with ``seed``; the referee takes it as it takes a player's."""
        ...

    def computer_input(self, position: PositionT_contra) -> object:
        """What the computer opponent is handed to choose the side to move's move in
        ``position``: that side's own view, holding no rank it may not know; its
        :meth:`ComputerOf.choose` takes it in place of a position."""
        ...


@runtime_checkable
class HiddenPieces(HiddenPiecesOf[Any, Any], Protocol):
    """Some game's hidden pieces, as the rest of nestref holds them (:class:`HiddenPiecesOf`)."""


def public_text(game: Game, position: Position) -> PublicText:
    """``position`` as everybody may see it: for a game that hides pieces the public
    view's notation, else the position's own."""
    hidden = game.hidden
    return PublicText(hidden.public_text(position) if hidden is not None else position.to_text())


def public_view(game: Game, position: Position) -> PublicView:
    """``position`` as every shared channel may carry it (:class:`PublicView`): for a
    game that hides pieces, the ranks its rules have shown and no other."""
    hidden = game.hidden
    if hidden is not None:
        letters = hidden.public_letters(position)
    else:
        letters = {cell: piece.letter for cell, piece in position.pieces().items()}
    return PublicView(
        position.turn,
        {cell: PublicLetter(letter) for cell, letter in letters.items()},
        public_text(game, position),
    )


def side_view(game: Game, position: Position, side: Side) -> SideView:
    """``position`` as ``side``'s player may know it (:class:`SideView`), for that
    player's own screen: in a game that hides nothing, the whole position."""
    hidden = game.hidden
    if hidden is not None:
        return SideView(side, dict(hidden.letters_seen_by(position, side)))
    return SideView(side, {cell: piece.letter for cell, piece in position.pieces().items()})


TIME_LOSS = "time"
"""How a record keeps a loss on time (a clock ran out), whatever the game: every game's
:meth:`GameNotation.outcome_record` gives it as the ``how`` of :meth:`GameRules.time_loss`."""
AGREED_DRAW = "agreed"
"""How a record keeps a draw the players agreed (at a distance: offered and accepted
through the link), whatever the game: the ``how`` of :meth:`GameRules.agreed_draw`."""


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position``, by the
    :class:`Position` protocol alone (a game may count faster on its own structures);
    ``position`` ends unchanged."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    count = 0
    for move in moves:
        position.push(move)
        count += perft(position, depth - 1)
        position.pop()
    return count


def divide(game: Game, position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: each legal move with the perft of ``depth - 1`` after
    it. ``depth`` must be at least 1."""
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    counts = []
    for move in position.legal_moves():
        position.push(move)
        counts.append((move, game.perft(position, depth - 1)))
        position.pop()
    return counts
