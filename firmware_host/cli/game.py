"""The commands about the game itself: the overview, its moves, perft, positions,
pictures, and the computer in the terminal. Other tools check the rules through
``moves``, ``perft`` and ``position``, so their output is fixed (the README)."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from firmware_host.errors import NestrefError
from firmware_host.files import write_text
from firmware_host.games import DEFAULT_GAME, load_game
from firmware_host.games.base import Game, Move, Outcome, Position, Side, divide


def game_of(args: argparse.Namespace) -> Game:
    """The game of ``--game`` on the board of ``--board`` (defaults: Operation Cuckoo on
    its own nest)."""
    return load_game(args.game or DEFAULT_GAME, args.board)


def start_of(args: argparse.Namespace, game: Game) -> Position:
    """The position named by ``--position`` or ``--lineup`` (default: the usual start)."""
    if args.position is not None:
        return game.read_position(args.position)
    return game.start(args.lineup if args.lineup is not None else game.lineups[0], Side.RED)


def _given(args: argparse.Namespace, game: Game) -> Position:
    """The position written out on the command line (default: the usual start)."""
    return game.read_position(" ".join(args.nfn)) if args.nfn else game.start(game.lineups[0], Side.RED)


def _play(game: Game, position: Position, moves: Sequence[str]) -> Position:
    """Play ``moves`` in order; an unreadable or illegal one stops with an error that says
    which it was."""
    for number, text in enumerate(moves, start=1):
        try:
            position.push(game.read_move(text))
        except NestrefError as error:
            raise NestrefError(f"{error} (move {number} of {len(moves)})") from None
    return position


def _reading_order(position: Position) -> Callable[[Move], tuple[int, int]]:
    """A sort key putting moves in reading order of their cells, from red's side."""
    index = position.board.index

    def key(move: Move) -> tuple[int, int]:
        if move.origin is None or move.target is None:
            return (-1, -1)
        return index(move.origin), index(move.target)

    return key


def _sorted_moves(position: Position) -> list[Move]:
    return sorted(position.legal_moves(), key=_reading_order(position))


def result_text(outcome: Outcome | None) -> str:
    return "ongoing" if outcome is None else outcome.to_text()


def run_overview(args: argparse.Namespace, out: TextIO) -> None:
    game = game_of(args)
    position = _play(game, start_of(args, game), args.moves)
    outcome = position.outcome()
    board = position.board
    print(f"{game.title} on the board {board.name} ({len(board.cells)} cells)", file=out)
    print(f"{game.legend()}\n", file=out)
    print(game.diagram(position), file=out)
    print(f"\nPosition: {position.to_text()}", file=out)
    if outcome is not None:
        print(f"Game over: {outcome}", file=out)
    else:
        legal = _sorted_moves(position)
        compulsory = " (capturing is compulsory)" if legal and all(move.is_capture for move in legal) else ""
        print(f"{position.turn.label} to move{compulsory}: {' '.join(map(str, legal))}", file=out)
    if args.command is None:
        print(
            "\nTry: nestref sim                 (the simulator: play on a nest in your browser)\n"
            "     nestref show c3-c4 c7-d6   (play moves and see the nest)\n"
            "     nestref moves | perft 4 | position c3-c4 | board --svg nest.svg\n"
            "     nestref --help",
            file=out,
        )


def run_moves(args: argparse.Namespace, out: TextIO) -> None:
    for move in _sorted_moves(_given(args, game_of(args))):
        print(move, file=out)


def run_perft(args: argparse.Namespace, out: TextIO) -> None:
    game = game_of(args)
    position = start_of(args, game)
    # perft recurses once per ply; a custom nest may allow games longer than Python's
    # default limit of 1000 frames (CPython 3.11 keeps Python-to-Python calls off the C stack).
    sys.setrecursionlimit(max(sys.getrecursionlimit(), args.depth + 100))
    if args.divide and args.depth > 0:
        counts = divide(game, position, args.depth)
        order = _reading_order(position)
        counts.sort(key=lambda item: order(item[0]))
        for move, count in counts:
            print(f"{move}: {count}", file=out)
        print(sum(count for _, count in counts), file=out)
    else:
        print(game.perft(position, args.depth), file=out)


def run_position(args: argparse.Namespace, out: TextIO) -> None:
    game = game_of(args)
    position = _play(game, start_of(args, game), args.moves)
    print(position.to_text(), file=out)
    print(f"result: {result_text(position.outcome())}", file=out)


def run_board(args: argparse.Namespace, out: TextIO) -> None:
    game = game_of(args)
    pieces = start_of(args, game).pieces() if args.position is not None or args.lineup is not None else None
    write_text(args.svg, game.picture(pieces))
    print(f"wrote {args.svg}: the board {game.board.name}, {len(game.board.cells)} cells", file=out)


ANALYSE_SECONDS = 2.0  # the default time of ``nestref analyse``


def run_analyse(args: argparse.Namespace, out: TextIO) -> None:
    """The computer's best move: ``bestmove <move>`` first (tools read that line), then
    what the search found (score, depth, nodes, time, the line it expects)."""
    game = game_of(args)
    position = _given(args, game)
    if position.outcome() is not None:
        raise NestrefError(f"the game is over in {position.to_text()}: there is no move to find")
    seconds = args.time if args.time is not None or args.nodes is not None else ANALYSE_SECONDS
    choice = game.computer(0).analyse(position, nodes=args.nodes, seconds=seconds, clock=time.monotonic)
    print(f"bestmove {choice.move}", file=out)
    facts = dict(choice.facts)
    unit = facts.pop("unit", "")  # the score's unit, in the game's words (none for a proved end)
    for name, value in facts.items():
        print(f"{name} {value}" + (f" ({unit})" if name == "score" and unit else ""), file=out)


TAKE_BACK = "back"  # typed in the terminal game: take back your last move and the reply
PLAY_HELP = """\
Type a move as {step} or a capture as {capture}, in any case, or as its two cells: {cells}.
  moves   list your legal moves
  back    take back your last move (and the computer's reply)
  help    this list
  quit    end the game"""


def play_help(game: Game, position: Position) -> str:
    """What ``help`` lists in ``nestref play``, its examples in ``game``'s notation: a
    move it may make from ``position`` and the capture written between the same cells."""
    step, capture, cells = _examples(game, position)
    return PLAY_HELP.format(step=step, capture=capture, cells=cells)


def _examples(game: Game, position: Position) -> tuple[str, str, str]:
    """A move of ``position`` in the game's notation, the capture between its cells, and
    the two cells typed together."""
    move = next((m for m in _sorted_moves(position) if not m.is_capture and not m.is_pass), None)
    if move is None or move.origin is None or move.target is None:
        return "a move", "a capture", "its two cells"
    capture = game.move(move.origin, move.target, capture=True).to_text()
    return move.to_text(), capture, f"{move.origin}{move.target}"


_CELL_WORDS = re.compile(r"[a-z][0-9]+")


def read_typed_move(game: Game, position: Position, text: str) -> Move:
    """A move as a person types it: in the game's notation in any case (``C3-C4``), or
    as its two cells (``c3c4``, ``c3 c4``): the move between them, a capture if the
    target holds a piece. Checked against ``position`` only when played. Raises a
    :class:`~firmware_host.errors.NestrefError` naming the text.

    >>> from firmware_host.games import load_game
    >>> cuckoo = load_game("cuckoo")
    >>> start = cuckoo.start("standard", Side.RED)
    >>> [str(read_typed_move(cuckoo, start, typed)) for typed in ("C3-C4", "c3c4", "c3 c4")]
    ['c3-c4', 'c3-c4', 'c3-c4']
    """
    typed = text.strip().lower()
    try:
        return game.read_move(typed)
    except NestrefError:
        cells = _CELL_WORDS.findall(typed)
        if (
            len(cells) == 2
            and _CELL_WORDS.sub("", typed).strip(" -x:") == ""
            and all(cell in position.board.cells for cell in cells)
        ):
            origin, target = cells
            for move in position.legal_moves():
                if (move.origin, move.target) == (origin, target):
                    return move
            return game.move(origin, target, capture=target in position.pieces())
        raise


def run_play(args: argparse.Namespace, out: TextIO) -> None:
    """A game against the computer in the terminal: the human's moves from standard
    input (with line editing and a history when it is a terminal)."""
    game = game_of(args)
    levels = game.computer_levels
    if not 1 <= args.level <= len(levels):
        raise NestrefError(
            f"there is no level {args.level}: the levels are 1 ({levels[0].name}) to {len(levels)} ({levels[-1].name})"
        )
    chosen = levels[args.level - 1]
    human = Side.from_text(args.side)
    hidden, setups = game.hidden, game.setups
    if args.lineup is None and hidden is not None and setups is not None:
        # A game whose pieces hide their ranks: each side's army set up at random, the
        # computer's hidden from you as across a table (a lineup named is everybody's).
        red, blue = (hidden.computer_setup(side, args.seed * 2 + n) for n, side in enumerate(Side))
        position = setups.start_from_setups(red, blue, Side.RED)
    else:
        position = game.start(args.lineup if args.lineup is not None else game.lineups[0], Side.RED)
    computer = game.computer(args.seed)
    ask = _line_reader(out)
    step, capture, cells = _examples(game, position)
    print(f"You play {human.label} against level {chosen.number} ({chosen.name}). Red starts.", file=out)
    print(f"Enter moves such as {step} or {capture} (or {cells}); 'help' lists what else you may type.", file=out)
    if hidden is not None:
        print(f"You see your own ranks, the other side's only once shown. {game.legend()}", file=out)
    while (outcome := position.outcome()) is None:
        print(f"\n{_diagram_for(game, position, human)}\n", file=out)
        if position.turn is human:
            move = _ask_move(game, position, ask, out)
            if move is None:
                print("Game abandoned.", file=out)
                return
            if move == TAKE_BACK:
                if hidden is not None and _last_strike_since_your_move(position, human):
                    print("Not taken back: a strike since showed its ranks, and what is known stays known.", file=out)
                    continue
                taken = _take_back(position, human)
                words = " ".join(map(str, taken)) if taken else "nothing: you have made no move yet"
                print(f"Taken back: {words}", file=out)
                continue
            assert not isinstance(move, str)
        else:
            choice = computer.choose(position, chosen.number, clock=time.monotonic, should_stop=lambda: False)
            move = choice.move
            view = f"score {choice.facts.get('score', '?')} for it, depth {choice.facts.get('depth', '?')}"
            print(f"{position.turn.label} plays {move} ({view})", file=out)
        announcer = game.announcer
        if announcer is not None and move.is_capture:  # its result is for the referee to say
            print(f"strike {move}: {announcer.announce_capture(position, move).words}", file=out)
        position.push(move)
    print(f"\n{_diagram_for(game, position, human)}\n", file=out)
    verdict = "a draw" if outcome.winner is None else "you win" if outcome.winner is human else "you lose"
    print(f"Game over: {outcome}: {verdict}.", file=out)


def _diagram_for(game: Game, position: Position, side: Side) -> str:
    """The position as ``side``'s player may see it: in a game that hides pieces, its own
    ranks and the other side's only where shown."""
    hidden = game.hidden
    return hidden.diagram_seen_by(position, side) if hidden is not None else game.diagram(position)


def _line_reader(out: TextIO) -> Callable[[str], str | None]:
    """Asks for a line after a prompt; None at the end of the input. At a terminal,
    through ``input()`` with readline: the line can be edited, and earlier lines come
    back with the arrow keys."""
    if sys.stdin.isatty() and out is sys.stdout:
        with contextlib.suppress(ImportError):  # a Python built without it: plain lines
            import readline  # noqa: F401  (imported for its effect: input() edits lines)

        def ask_terminal(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print(file=out)
                return None

        return ask_terminal

    def ask_stream(prompt: str) -> str | None:
        print(prompt, end="", file=out, flush=True)
        line = sys.stdin.readline()
        if not line:
            print(file=out)
            return None
        return line

    return ask_stream


def _last_strike_since_your_move(position: Position, human: Side) -> bool:
    """Whether taking back ``human``'s last move would take back a capture too (in a game
    that hides pieces, a strike: its ranks were told, so undoing it would be a free look)."""
    side = position.turn.opponent
    for move in reversed(position.move_stack):
        if move.is_capture:
            return True
        if side is human and not move.is_pass:
            return False
        side = side.opponent
    return False


def _take_back(position: Position, human: Side) -> tuple[Move, ...]:
    """Take back the human's last move and what came after it (the computer's reply,
    passes), oldest first; nothing if the human has made no move."""
    side = position.turn.opponent  # who made the last move: sides alternate, passes included
    for back, move in enumerate(reversed(position.move_stack), start=1):
        if side is human and not move.is_pass:
            return tuple(reversed([position.pop() for _ in range(back)]))
        side = side.opponent
    return ()


def _ask_move(game: Game, position: Position, ask: Callable[[str], str | None], out: TextIO) -> Move | str | None:
    """The human's next legal move, asked until one is given; :data:`TAKE_BACK` if they
    ask for one; None on ``quit`` or at the end of the input. A side without a move
    passes by itself."""
    moves = position.legal_moves()
    if len(moves) == 1 and moves[0].is_pass:
        print(f"{position.turn.label} has no legal move and passes.", file=out)
        return moves[0]
    while True:
        line = ask(f"your move ({position.turn.label}): ")
        if line is None:  # the end of the input
            return None
        text = line.strip().lower()
        if not text:
            continue
        if text in ("quit", "exit"):
            return None
        if text in ("help", "?"):
            print(play_help(game, position), file=out)
            continue
        if text == "moves":
            print(" ".join(str(move) for move in _sorted_moves(position)), file=out)
            continue
        if text in (TAKE_BACK, "undo", "take back"):
            return TAKE_BACK
        try:
            move = read_typed_move(game, position, text)
        except NestrefError as error:
            print(f"{error} ('help' says how to write a move)", file=out)
            continue
        illegal = position.check_move(move)
        if illegal is not None:
            # Two cells typed are read as the move between them: say so, or "c3c4" comes back as "c3xc4".
            read_as = "" if text == str(move).lower() else f" (you typed {text}: read as {move})"
            print(f"{illegal}{read_as}", file=out)
            continue
        return move
