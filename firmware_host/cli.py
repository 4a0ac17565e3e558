"""The ``nestref`` command line.

Other tools check the engine through ``moves``, ``perft`` and ``position``, so their
output is fixed: see the README. A bad command line, board file, NFN or move prints
one line saying what is wrong and exits with code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host import __version__
from firmware_host.errors import HardwareError, NestrefError
from firmware_host.files import reason, write_text
from firmware_host.games import DEFAULT_GAME, game_names, load_game
from firmware_host.games.base import Game, Move, Outcome, Position, Side, divide
from firmware_host.referee.referee import Settings
from firmware_host.referee.sensor_log import SensorLogStream, decoded_lines, stream_sensor_log
from firmware_host.referee.service import RefereeService
from firmware_host.referee.signals import Signal
from firmware_host.referee.store import GameStore, StorageUnavailableError

if TYPE_CHECKING:
    from firmware_host.daemon.config import Config

EXIT_UNAVAILABLE = 1  # the hardware or the disk is not there now: trying again may work
EXIT_BAD_INPUT = 2  # a bad command line, file or config: trying again will not help


def _game(args: argparse.Namespace) -> Game:
    """The game of ``--game`` on the board of ``--board`` (defaults: Operation Cuckoo on
    its own nest)."""
    return load_game(args.game or DEFAULT_GAME, args.board)


def _start(args: argparse.Namespace, game: Game) -> Position:
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


def _result(outcome: Outcome | None) -> str:
    return "ongoing" if outcome is None else outcome.to_text()


def run_overview(args: argparse.Namespace, out: TextIO) -> None:
    game = _game(args)
    position = _play(game, _start(args, game), args.moves)
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
    for move in _sorted_moves(_given(args, _game(args))):
        print(move, file=out)


def run_perft(args: argparse.Namespace, out: TextIO) -> None:
    game = _game(args)
    position = _start(args, game)
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
    game = _game(args)
    position = _play(game, _start(args, game), args.moves)
    print(position.to_text(), file=out)
    print(f"result: {_result(position.outcome())}", file=out)


def run_board(args: argparse.Namespace, out: TextIO) -> None:
    game = _game(args)
    pieces = _start(args, game).pieces() if args.position is not None or args.lineup is not None else None
    write_text(args.svg, game.picture(pieces))
    print(f"wrote {args.svg}: the board {game.board.name}, {len(game.board.cells)} cells", file=out)


def run_referee(args: argparse.Namespace, out: TextIO) -> None:
    game = _game(args)
    try:
        handle = open(args.events, "rb")  # noqa: SIM115  (a context manager just below)
    except OSError as error:
        raise NestrefError(f"{args.events}: cannot read the sensor log: {reason(error)}") from None
    with handle:

        def stream() -> SensorLogStream:
            handle.seek(0)
            return stream_sensor_log(decoded_lines(handle, source=args.events), game=game, source=args.events)

        # The whole file is checked first, line by line, so that a bad line stops the
        # command before anything is refereed; then it is read again and replayed.
        for _ in stream().events:
            pass
        _replay_sensor_log(args, game, stream(), out)


def _replay_sensor_log(args: argparse.Namespace, game: Game, log: SensorLogStream, out: TextIO) -> None:
    if args.position is not None or args.lineup is not None:
        start, label, occupied = _start(args, game), args.lineup, None
    elif log.start is not None:
        start, label, occupied = log.start, log.start_label, log.occupied
    else:
        label = game.lineups[0]
        start, occupied = game.start(label, Side.RED), log.occupied
    lineup = label if label in game.lineups else game.lineups[0]
    settings = Settings(lenient=args.lenient)

    def announce(signal: Signal) -> None:
        print(signal.to_text(), file=out, flush=True)

    # Without --db the record is thrown away: a file of its own, not memory, so that
    # replaying a long log takes no more memory than a short one.
    with contextlib.ExitStack() as stack:
        if args.db is None:
            path, durable = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "replay.sqlite", False
        else:
            path, durable = Path(args.db), True
        store = stack.enter_context(GameStore(path, game=game, clock=time.time, durable=durable))
        service = RefereeService.start(
            game,
            settings=settings,
            store=store,
            announce=announce,
            lineup=lineup,
            occupied=start.pieces() if occupied is None else occupied,
            now=0,
            position=start,
        )
        clock = 0  # the log's time reached so far

        def wait_until(moment: int) -> None:
            nonlocal clock
            if args.speed and moment > clock:
                time.sleep((moment - clock) / 1000 / args.speed)
            clock = max(clock, moment)

        def tick_until(moment: int | None) -> None:
            """Let the referee decide what falls due before ``moment`` (None: ever)."""
            for _ in range(10_000):
                due = service.referee.next_deadline()
                if due is None or (moment is not None and due >= moment):
                    return
                wait_until(due)
                service.tick(due)

        for event in log.events:
            tick_until(event.time_ms)
            wait_until(event.time_ms)
            service.sense(event.cell, event.occupied, event.time_ms)
        tick_until(None)  # after the last line the nest stays as it is
        referee = service.referee
        position = referee.position
        if position is None:  # waiting for a set-up nest: report the lineup expected
            position = game.start(referee.lineup, referee.starter)
        outcome = referee.outcome if referee.outcome is not None else position.outcome()
        print(position.to_text(), file=out)
        print(f"result: {_result(outcome)}", file=out)


def _config(args: argparse.Namespace) -> Config:
    """The config of ``--config`` (or the defaults), on the nest of ``--board`` if given."""
    from firmware_host.daemon.config import load_config

    return load_config(args.config, game=args.game, board=args.board)


def run_run(args: argparse.Namespace, out: TextIO) -> None:
    """The composition root of the nest: config, devices, the daemon, and with ``--web``
    the spectators' page beside it (its address then shows on the OLED)."""
    from firmware_host.daemon import Daemon, open_devices, serve
    from firmware_host.logs import setup_logging

    config = _config(args)
    setup_logging(config.log_level)
    if args.mock:
        from sim.mock_devices import open_mock_devices

        devices, _ = open_mock_devices(config)
    else:
        devices = open_devices(config, pin_factory=_real_pin_factory())
    daemon = Daemon(config, devices)
    server = None
    if args.web is not None:
        from firmware_host.web.server import WebServer

        server = WebServer(daemon, host=args.web[0], port=args.web[1])  # read-only: no table to act on
    serve(daemon, server, started=lambda url: logging.getLogger("nestref").info("spectator page at %s", url))


def _real_pin_factory() -> Any:
    """The Pi's GPIO through lgpio, the library Raspberry Pi OS Bookworm uses."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as error:  # ImportError off the Pi; lgpio.error without /dev/gpiochip0
        raise HardwareError(f"no GPIO here ({error}): run on a Raspberry Pi, or try it all with --mock") from None


def run_sim(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.logs import setup_logging
    from sim.app import run_simulator

    config = _config(args)
    setup_logging("warning")  # the page has the referee's words; the terminal keeps quiet
    run_simulator(config, host=args.host, port=args.port, database=args.db, open_browser=not args.no_browser, out=out)


ANALYSE_SECONDS = 2.0  # the default time of ``nestref analyse``


def run_analyse(args: argparse.Namespace, out: TextIO) -> None:
    """The computer's best move: ``bestmove <move>`` first (tools read that line), then
    what the search found (score, depth, nodes, time, the line it expects)."""
    game = _game(args)
    position = _given(args, game)
    if position.outcome() is not None:
        raise NestrefError(f"the game is over in {position.to_text()}: there is no move to find")
    seconds = args.time if args.time is not None or args.nodes is not None else ANALYSE_SECONDS
    choice = game.computer(0).analyse(position, nodes=args.nodes, seconds=seconds, clock=time.monotonic)
    print(f"bestmove {choice.move}", file=out)
    for name, value in choice.facts.items():
        print(f"{name} {value}", file=out)


def run_play(args: argparse.Namespace, out: TextIO) -> None:
    """A game against the computer in the terminal: the human's moves from standard input."""
    game = _game(args)
    levels = game.computer_levels
    if not 1 <= args.level <= len(levels):
        raise NestrefError(
            f"there is no level {args.level}: the levels are 1 ({levels[0].name}) to {len(levels)} ({levels[-1].name})"
        )
    chosen = levels[args.level - 1]
    human = Side.from_text(args.side)
    position = game.start(args.lineup if args.lineup is not None else game.lineups[0], Side.RED)
    computer = game.computer(args.seed)
    lines = iter(sys.stdin.readline, "")
    print(f"You play {human.label} against level {chosen.number} ({chosen.name}). Red starts.", file=out)
    print("Enter moves such as c3-c4 or d4xe5; 'moves' lists yours, 'quit' ends the game.", file=out)
    while (outcome := position.outcome()) is None:
        print(f"\n{game.diagram(position)}\n", file=out)
        if position.turn is human:
            move = _ask_move(game, position, lines, out)
            if move is None:
                print("Game abandoned.", file=out)
                return
        else:
            choice = computer.choose(position, chosen.number, clock=time.monotonic, should_stop=lambda: False)
            move = choice.move
            view = f"score {choice.facts.get('score', '?')} for it, depth {choice.facts.get('depth', '?')}"
            print(f"{position.turn.label} plays {move} ({view})", file=out)
        position.push(move)
    print(f"\n{game.diagram(position)}\n", file=out)
    verdict = "a draw" if outcome.winner is None else "you win" if outcome.winner is human else "you lose"
    print(f"Game over: {outcome}: {verdict}.", file=out)


def _ask_move(game: Game, position: Position, lines: Iterator[str], out: TextIO) -> Move | None:
    """The human's next legal move, asked until one is given; None on ``quit`` or at the
    end of the input. A side without a move passes by itself."""
    moves = position.legal_moves()
    if len(moves) == 1 and moves[0].is_pass:
        print(f"{position.turn.label} has no legal move and passes.", file=out)
        return moves[0]
    while True:
        print(f"your move ({position.turn.label}): ", end="", file=out, flush=True)
        line = next(lines, None)
        if line is None:  # the end of the input
            print(file=out)
            return None
        text = line.strip()
        if not text:
            continue
        if text in ("quit", "exit"):
            return None
        if text == "moves":
            print(" ".join(str(move) for move in _sorted_moves(position)), file=out)
            continue
        try:
            move = game.read_move(text)
        except NestrefError as error:
            print(error, file=out)
            continue
        illegal = position.check_move(move)
        if illegal is not None:
            print(illegal, file=out)
            continue
        return move


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, got {port}")
    return port


_DOTTED_NUMBERS = re.compile(r"[0-9.]+")


def _host(text: str) -> str:
    """An address to serve on: an IP address, or a name (such as localhost)."""
    host = text.strip("[]")
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    if not host or _DOTTED_NUMBERS.fullmatch(host) or ":" in host or any(c.isspace() for c in host):
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not an address (such as 127.0.0.1, 0.0.0.0 or ::1)")
    return host


def _address(text: str) -> tuple[str, int]:
    """HOST:PORT, HOST, [IPV6]:PORT, IPV6 or :PORT."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":") or "8080"
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:  # a name or an IPv4 address, or a bare IPv6 address: no port
        host, port = text, "8080"
    return (_host(host) if host else "0.0.0.0"), _port(port)


def _database(text: str) -> str:
    """A SQLite file for the games, or ``:memory:``."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file to keep the games in, got nothing (:memory: keeps none)")
    return text


def run_calibrate(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.calibrate import calibrate

    for option, given in (("--board", args.board), ("--game", args.game)):  # the map is the config's nest's
        if given is not None:
            raise NestrefError(f"calibrate: {option} is not taken here: name it in the config's [game]")

    calibrate(args.config, write=args.write, out=out, pin_factory=None if args.mock else _real_pin_factory())


def run_wiring(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.wiring import render_wiring

    text = render_wiring(_config(args))
    if args.output:
        write_text(args.output, text)
    else:
        out.write(text)


def _speed(text: str) -> float:
    try:
        speed = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not speed >= 0 or speed == float("inf"):
        raise argparse.ArgumentTypeError(f"the speed must be 0 or more, got {text}")
    return speed


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"the depth must not be negative, got {depth}")
    return depth


def _seconds(text: str) -> float:
    seconds = _speed(text)
    if seconds == 0:
        raise argparse.ArgumentTypeError("the time must be more than 0")
    return seconds


def _count(text: str) -> int:
    count = _depth(text)
    if count == 0:
        raise argparse.ArgumentTypeError("the number of nodes must be at least 1")
    return count


def build_parser() -> argparse.ArgumentParser:
    board = argparse.ArgumentParser(add_help=False)
    board_help = "a board file describing your nest (default: the game's own, hexhex-5)"
    game_help = f"the game: {', '.join(game_names())} (default: {DEFAULT_GAME}, or the config's)"
    # SUPPRESS: a --board given before the command is not reset by the command's default.
    board.add_argument("--board", metavar="FILE", default=argparse.SUPPRESS, help=board_help)
    board.add_argument("--game", choices=game_names(), default=argparse.SUPPRESS, help=game_help)
    start = argparse.ArgumentParser(add_help=False)
    where = start.add_mutually_exclusive_group()
    where.add_argument("--position", metavar="NFN", help="start from this position (quote it: it holds a space)")
    where.add_argument("--lineup", metavar="NAME", help="start from this lineup: standard, advanced-1, advanced-2")

    parser = argparse.ArgumentParser(
        prog="nestref",
        description="nestref: the referee for Operation Cuckoo. Without a command, shows the nest at the start.",
    )
    parser.add_argument("--board", metavar="FILE", help=board_help)
    parser.add_argument("--game", choices=game_names(), help=game_help)
    parser.add_argument("--version", action="version", version=f"nestref {__version__}")
    parser.set_defaults(run=run_overview, position=None, lineup=None, moves=[])
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    show = commands.add_parser("show", parents=[board, start], help="draw a position as text, with its legal moves")
    show.add_argument("moves", nargs="*", metavar="MOVE", help="moves to play first, such as c3-c4 or d4xe5")
    show.set_defaults(run=run_overview)

    moves = commands.add_parser("moves", parents=[board], help="list the legal moves, one per line")
    moves.add_argument("nfn", nargs="*", metavar="NFN", help="the position (default: the standard start, red to move)")
    moves.set_defaults(run=run_moves)

    count = commands.add_parser("perft", parents=[board, start], help="count the move paths of a given length")
    count.add_argument("depth", type=_depth, metavar="DEPTH")
    count.add_argument("--divide", action="store_true", help="one line 'move: count' per first move, then the total")
    count.set_defaults(run=run_perft)

    play = commands.add_parser("position", parents=[board, start], help="play moves; print the NFN and the result")
    play.add_argument("moves", nargs="*", metavar="MOVE", help="moves to play, such as c3-c4 or d4xe5 or pass")
    play.set_defaults(run=run_position)

    referee = commands.add_parser(
        "referee", parents=[board, start], help="replay a sensor log through the referee, printing what it decides"
    )
    referee.add_argument("--events", metavar="FILE", required=True, help="the sensor log (see docs/sensor-log.md)")
    referee.add_argument("--lenient", action="store_true", help="accept a missed compulsory capture, with a warning")
    referee.add_argument(
        "--db", metavar="FILE", type=_database, help="record the games in this SQLite file and resume from it"
    )
    referee.add_argument(
        "--speed", type=_speed, default=0.0, metavar="X", help="replay at X times the log's pace (default 0: at once)"
    )
    referee.set_defaults(run=run_referee)

    daemon = commands.add_parser(
        "run", parents=[board], help="run the referee on the nest (the daemon systemd keeps running)"
    )
    daemon.add_argument("--config", metavar="FILE", help="the config (default: the shipped defaults)")
    daemon.add_argument("--mock", action="store_true", help="on simulated hardware, without a Pi")
    daemon.add_argument(
        "--web",
        metavar="ADDRESS",
        nargs="?",
        const="0.0.0.0:8080",
        type=_address,
        help="serve the live game read-only, for spectators (default 0.0.0.0:8080: every address)",
    )

    sim = commands.add_parser(
        "sim", parents=[board], help="the simulator: the real daemon on simulated hardware, in a web page"
    )
    sim.add_argument("--config", metavar="FILE", help="a daemon config to try (default: the shipped defaults)")
    sim.add_argument(
        "--host", type=_host, default="127.0.0.1", help="the address to serve on (default 127.0.0.1: this machine)"
    )
    sim.add_argument("--port", type=_port, default=8080, help="the port (default 8080; 0: any free one)")
    sim.add_argument(
        "--db", metavar="FILE", type=_database, default=":memory:", help="keep the games in this SQLite file"
    )
    sim.add_argument("--no-browser", action="store_true", help="do not open a browser")
    sim.set_defaults(run=run_sim)
    daemon.set_defaults(run=run_run)

    calibrate = commands.add_parser(
        "calibrate", parents=[board], help="walk over the nest to map each cell to its switch"
    )
    calibrate.add_argument("--config", metavar="FILE", help="the config to check, and to write with --write")
    calibrate.add_argument("--write", action="store_true", help="write the map found into the config's [matrix]")
    calibrate.add_argument("--mock", action="store_true", help=argparse.SUPPRESS)
    calibrate.set_defaults(run=run_calibrate)

    wiring = commands.add_parser("wiring", parents=[board], help="write the wiring guide (wiring.md) for a config")
    wiring.add_argument("--config", metavar="FILE", help="the config (default: the shipped defaults)")
    wiring.add_argument("--output", metavar="FILE", help="where to write it (default: print it)")
    wiring.set_defaults(run=run_wiring)

    analyse = commands.add_parser("analyse", parents=[board], help="the computer opponent's best move in a position")
    analyse.add_argument(
        "nfn", nargs="*", metavar="NFN", help="the position (default: the standard start, red to move)"
    )
    analyse.add_argument(
        "--time",
        type=_seconds,
        metavar="SECONDS",
        help=f"think this long (default {ANALYSE_SECONDS:g} without --nodes)",
    )
    analyse.add_argument("--nodes", type=_count, metavar="N", help="stop after this many positions searched")
    analyse.set_defaults(run=run_analyse)

    game = commands.add_parser("play", parents=[board], help="play a game against the computer in the terminal")
    game.add_argument("--level", type=int, required=True, metavar="N", help="1 (beginner) to 5 (strongest)")
    game.add_argument("--side", choices=("red", "blue"), default="red", help="your side (default red; red starts)")
    game.add_argument("--lineup", metavar="NAME", help="standard (default), advanced-1, advanced-2")
    game.add_argument("--seed", type=int, default=0, help="the seed of the computer's deliberate mistakes (default 0)")
    game.set_defaults(run=run_play)

    draw = commands.add_parser("board", parents=[board, start], help="draw the nest as an SVG picture")
    draw.add_argument("--svg", metavar="FILE", required=True, help="where to write the picture")
    draw.set_defaults(run=run_board)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code: 0; 1 when the hardware or the disk
    failed (systemd tries again); 2 for bad input."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the usage and the error
        return int(exit_.code or 0)
    try:
        args.run(args, sys.stdout)
        sys.stdout.flush()
    except (HardwareError, StorageUnavailableError) as error:
        print(f"nestref: {error}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    except NestrefError as error:
        print(f"nestref: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader stopped early, as `nestref moves | head` does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
