"""The ``nestref`` command line.

Other tools check the engine through ``moves``, ``perft`` and ``position``, so their
output is fixed: see the README. A bad command line, board file, NFN or move prints
one line saying what is wrong and exits with code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host import __version__
from firmware_host.drawing import nest_svg, text_diagram
from firmware_host.engine import Engine, Limits, SearchResult, level
from firmware_host.errors import HardwareError, NestrefError, NotationError
from firmware_host.files import reason, write_text
from firmware_host.referee.referee import Settings
from firmware_host.referee.sensor_log import SensorLogStream, decoded_lines, stream_sensor_log
from firmware_host.referee.service import RefereeService
from firmware_host.referee.signals import Signal
from firmware_host.referee.store import GameStore, StorageUnavailableError
from firmware_host.rules import PASS, IllegalMoveError, Move, Nest, Outcome, Position, Side, divide, perft

if TYPE_CHECKING:
    from firmware_host.config import Config

EXIT_UNAVAILABLE = 1  # the hardware or the disk is not there now: trying again may work
EXIT_BAD_INPUT = 2  # a bad command line, file or config: trying again will not help


def _nest(args: argparse.Namespace) -> Nest:
    return Nest.load(args.board) if args.board is not None else Nest.default()


def _start(args: argparse.Namespace, nest: Nest) -> Position:
    """The position named by ``--position`` or ``--lineup`` (default: the standard start)."""
    if args.position is not None:
        return Position.from_nfn(args.position, nest=nest)
    return Position.from_lineup(args.lineup, nest=nest)


def _play(position: Position, moves: Sequence[str]) -> Position:
    """Play ``moves`` in order; an unreadable or illegal one stops with an error that says
    which it was."""
    for number, text in enumerate(moves, start=1):
        try:
            position.push(Move.from_text(text))
        except (NotationError, IllegalMoveError) as error:
            raise NestrefError(f"{error} (move {number} of {len(moves)})") from None
    return position


def _reading_order(position: Position) -> Callable[[Move], tuple[int, int]]:
    """A sort key putting moves in reading order of their cells, from red's side."""
    index = position.nest.index

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
    position = _play(_start(args, _nest(args)), args.moves)
    outcome = position.outcome()
    nest = position.nest
    print(f"Operation Cuckoo on the nest {nest.name} ({len(nest.cells)} cells)", file=out)
    print("Pieces: E W C red egg, warbler, cuckoo; e w c blue; _ an empty homebase.\n", file=out)
    print(text_diagram(position), file=out)
    print(f"\nNFN: {position.to_nfn()}", file=out)
    if outcome is not None:
        print(f"Game over: {outcome}", file=out)
    else:
        moves = " ".join(str(move) for move in _sorted_moves(position))
        compulsory = " (capturing is compulsory)" if position.is_capture_compulsory() else ""
        print(f"{position.turn.label} to move{compulsory}: {moves}", file=out)
    if args.command is None:
        print(
            "\nTry: nestref sim                 (the simulator: play on a nest in your browser)\n"
            "     nestref show c3-c4 c7-d6   (play moves and see the nest)\n"
            "     nestref moves | perft 4 | position c3-c4 | board --svg nest.svg\n"
            "     nestref --help",
            file=out,
        )


def run_moves(args: argparse.Namespace, out: TextIO) -> None:
    nest = _nest(args)
    position = Position.from_nfn(" ".join(args.nfn), nest=nest) if args.nfn else Position.from_lineup(nest=nest)
    for move in _sorted_moves(position):
        print(move, file=out)


def run_perft(args: argparse.Namespace, out: TextIO) -> None:
    position = _start(args, _nest(args))
    # perft recurses once per ply; a custom nest may allow games longer than Python's
    # default limit of 1000 frames (CPython 3.11 keeps Python-to-Python calls off the C stack).
    sys.setrecursionlimit(max(sys.getrecursionlimit(), args.depth + 100))
    if args.divide and args.depth > 0:
        counts = divide(position, args.depth)
        order = _reading_order(position)
        counts.sort(key=lambda item: order(item[0]))
        for move, count in counts:
            print(f"{move}: {count}", file=out)
        print(sum(count for _, count in counts), file=out)
    else:
        print(perft(position, args.depth), file=out)


def run_position(args: argparse.Namespace, out: TextIO) -> None:
    position = _play(_start(args, _nest(args)), args.moves)
    print(position.to_nfn(), file=out)
    print(f"result: {_result(position.outcome())}", file=out)


def run_board(args: argparse.Namespace, out: TextIO) -> None:
    nest = _nest(args)
    pieces = _start(args, nest).pieces() if args.position is not None or args.lineup is not None else None
    write_text(args.svg, nest_svg(nest, pieces))
    print(f"wrote {args.svg}: the nest {nest.name}, {len(nest.cells)} cells", file=out)


def run_referee(args: argparse.Namespace, out: TextIO) -> None:
    nest = _nest(args)
    try:
        handle = open(args.events, "rb")  # noqa: SIM115  (a context manager just below)
    except OSError as error:
        raise NestrefError(f"{args.events}: cannot read the sensor log: {reason(error)}") from None
    with handle:

        def stream() -> SensorLogStream:
            handle.seek(0)
            return stream_sensor_log(decoded_lines(handle, source=args.events), nest=nest, source=args.events)

        # The whole file is checked first, line by line, so that a bad line stops the
        # command before anything is refereed; then it is read again and replayed.
        for _ in stream().events:
            pass
        _replay_sensor_log(args, nest, stream(), out)


def _replay_sensor_log(args: argparse.Namespace, nest: Nest, log: SensorLogStream, out: TextIO) -> None:
    if args.position is not None or args.lineup is not None:
        start, label = _start(args, nest), args.lineup
    elif log.start is not None:
        start, label = log.start, log.start_label
    else:
        label = nest.default_lineup
        start = Position.from_lineup(label, nest=nest)
    lineup = label if label in nest.lineup_names else nest.default_lineup
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
        store = stack.enter_context(GameStore(path, nest=nest, clock=time.time, durable=durable))
        service = RefereeService.start(
            nest,
            settings=settings,
            store=store,
            announce=announce,
            lineup=lineup,
            occupied=start.occupied(),
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
            position = Position.from_lineup(referee.lineup, turn=referee.starter, nest=nest)
        outcome = referee.outcome if referee.outcome is not None else position.outcome()
        print(position.to_nfn(), file=out)
        print(f"result: {_result(outcome)}", file=out)


def _config(args: argparse.Namespace) -> Config:
    """The config of ``--config`` (or the defaults), on the nest of ``--board`` if given."""
    from firmware_host.config import load_config

    return load_config(args.config, board=args.board)


def run_run(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.daemon import open_devices, run_daemon
    from firmware_host.logs import setup_logging

    config = _config(args)
    setup_logging(config.log_level)
    if args.mock:
        from sim.mock_devices import open_mock_devices

        devices, _ = open_mock_devices(config)
    else:
        devices = open_devices(config, pin_factory=_real_pin_factory())
    run_daemon(config, devices, web=args.web)


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
    """The engine's best move: ``bestmove <move>`` first (tools read that line), then the
    score, depth, nodes, time and the line it expects."""
    nest = _nest(args)
    position = Position.from_nfn(" ".join(args.nfn), nest=nest) if args.nfn else Position.from_lineup(nest=nest)
    seconds = args.time if args.time is not None or args.nodes is not None else ANALYSE_SECONDS
    result = Engine().search(position, Limits(nodes=args.nodes, seconds=seconds), clock=time.monotonic)
    print(f"bestmove {result.move}", file=out)
    print(f"score {result.score_text()}", file=out)
    print(f"depth {result.depth}", file=out)
    print(f"nodes {result.nodes}", file=out)
    print(f"time {result.seconds or 0.0:.2f} s", file=out)
    print(f"pv {' '.join(map(str, result.pv))}", file=out)


def run_play(args: argparse.Namespace, out: TextIO) -> None:
    """A game against the engine in the terminal: the human's moves from standard input."""
    nest = _nest(args)
    chosen = level(args.level)
    human = Side.from_text(args.side)
    position = Position.from_lineup(args.lineup, nest=nest)
    engine = Engine(seed=args.seed)
    lines = iter(sys.stdin.readline, "")
    print(f"You play {human.label} against level {chosen.number} ({chosen.name}). Red starts.", file=out)
    print("Enter moves such as c3-c4 or d4xe5; 'moves' lists yours, 'quit' ends the game.", file=out)
    while (outcome := position.outcome()) is None:
        print(f"\n{text_diagram(position)}\n", file=out)
        if position.turn is human:
            move = _ask_move(position, lines, out)
            if move is None:
                print("Game abandoned.", file=out)
                return
        else:
            result = engine.choose(position, chosen, clock=time.monotonic)
            move = result.move
            print(f"{position.turn.label} plays {move} ({_engine_view(result)})", file=out)
        position.push(move)
    print(f"\n{text_diagram(position)}\n", file=out)
    verdict = "a draw" if outcome.winner is None else "you win" if outcome.winner is human else "you lose"
    print(f"Game over: {outcome}: {verdict}.", file=out)


def _engine_view(result: SearchResult) -> str:
    return f"score {result.score_text()} for it, depth {result.depth}"


def _ask_move(position: Position, lines: Iterator[str], out: TextIO) -> Move | None:
    """The human's next legal move, asked until one is given; None on ``quit`` or at the
    end of the input. A side without a move passes by itself."""
    moves = position.legal_moves()
    if moves == [PASS]:
        print(f"{position.turn.label} has no legal move and passes.", file=out)
        return PASS
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
            move = Move.from_text(text)
        except NotationError as error:
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

    if args.board is not None:  # the map it finds, and writes, is the config's nest's
        raise NestrefError("calibrate: --board is not taken here: name the board in the config's [game] board")

    calibrate(args.config, write=args.write, out=out, pin_factory=None if args.mock else _real_pin_factory())


def run_wiring(args: argparse.Namespace, out: TextIO) -> None:
    from firmware_host.schematic import schematic_svg
    from firmware_host.wiring import render_wiring

    config = _config(args)
    if args.schematic:
        write_text(args.schematic, schematic_svg(config))
    if args.output:
        write_text(args.output, render_wiring(config))
    elif not args.schematic:  # asked for the drawing alone
        out.write(render_wiring(config))


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
    board_help = "a board file describing your nest (default: hexhex-5)"
    # SUPPRESS: a --board given before the command is not reset by the command's default.
    board.add_argument("--board", metavar="FILE", default=argparse.SUPPRESS, help=board_help)
    start = argparse.ArgumentParser(add_help=False)
    where = start.add_mutually_exclusive_group()
    where.add_argument("--position", metavar="NFN", help="start from this position (quote it: it holds a space)")
    where.add_argument("--lineup", metavar="NAME", help="start from this lineup: standard, advanced-1, advanced-2")

    parser = argparse.ArgumentParser(
        prog="nestref",
        description="nestref: the referee for Operation Cuckoo. Without a command, shows the nest at the start.",
    )
    parser.add_argument("--board", metavar="FILE", help=board_help)
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
    wiring.add_argument(
        "--schematic", metavar="FILE", help="write the schematic as an SVG (the guide too only with --output)"
    )
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
