"""The command line's grammar: every command, its options, and the checks of their
values (a bad one is argparse's error, exit code 2)."""

from __future__ import annotations

import argparse
import ipaddress
import re
from typing import TYPE_CHECKING

from firmware_host import __version__
from firmware_host.cli.game import (
    ANALYSE_SECONDS,
    run_analyse,
    run_board,
    run_moves,
    run_overview,
    run_perft,
    run_play,
    run_position,
)
from firmware_host.cli.live import broker_url, run_live
from firmware_host.cli.nest import run_calibrate, run_run, run_sim, run_wiring
from firmware_host.cli.records import run_export, run_games, run_import
from firmware_host.cli.replay import run_referee
from firmware_host.games import DEFAULT_GAME, game_names

if TYPE_CHECKING:
    from firmware_host.remote.broker import BrokerSettings


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, got {port}")
    return port


_DOTTED_NUMBERS = re.compile(r"[0-9.]+")
PLAY_LEVEL = 1  # nestref play's computer, unless told: the beginner, for a first game


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


def _broker(text: str) -> BrokerSettings:
    """An MQTT broker's address: ``mqtt://host[:port]`` or ``mqtts://user@host[:port]``."""
    from firmware_host.remote.broker import BrokerSettings, LinkError

    try:
        return BrokerSettings.from_url(text)
    except LinkError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _database(text: str) -> str:
    """A SQLite file for the games, or ``:memory:``."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file to keep the games in, got nothing (:memory: keeps none)")
    return text


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
        "run",
        parents=[board],
        help="run the referee on the nest (the daemon systemd keeps running; --mock: without a Pi)",
    )
    daemon.add_argument("--config", metavar="FILE", help="the config (default: the shipped defaults)")
    daemon.add_argument(
        "--mock",
        action="store_true",
        help="on simulated hardware, without a Pi, as any user: the games go to "
        "$XDG_DATA_HOME/nestref/games.sqlite (~/.local/share/nestref) unless --db or the config names a file",
    )
    daemon.add_argument(
        "--db", metavar="FILE", type=_database, help="keep the games in this SQLite file (default: the config's)"
    )
    daemon.add_argument(
        "--web",
        metavar="ADDRESS",
        nargs="?",
        const="0.0.0.0:8080",
        type=_address,
        help="serve the live game read-only, for spectators (default 0.0.0.0:8080: every address)",
    )
    daemon.add_argument(
        "--broker", metavar="URL", type=_broker, help="play other nests through this MQTT broker (not the config's)"
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
    sim.add_argument(
        "--broker", metavar="URL", type=_broker, help="play other nests through this MQTT broker (mqtt://host)"
    )
    sim.set_defaults(run=run_sim)
    daemon.set_defaults(run=run_run)

    live = commands.add_parser("live", help="every game on an MQTT broker at once, on a web page (live boards)")
    live.add_argument(
        "--broker", type=broker_url, metavar="URL", help="mqtt://[user@]host[:port] or mqtts://... (default: [broker])"
    )
    live.add_argument("--config", metavar="FILE", help="a config: its [broker], [web] hosts and [logging]")
    live.add_argument(
        "--host", type=_host, default="127.0.0.1", help="the address to serve on (default 127.0.0.1; 0.0.0.0: all)"
    )
    live.add_argument("--port", type=_port, default=8090, help="the port (default 8090; 0: any free one)")
    live.set_defaults(run=run_live)

    # No --game or --board here: the nest walked is the config's (its [game]), so the
    # help lists only what the command takes.
    calibrate = commands.add_parser(
        "calibrate",
        help="walk over the nest to map each cell to its switch (--mock: a rehearsal)",
        description="The nest walked is the config's: its game and board are the config's [game].",
    )
    calibrate.add_argument(
        "--config", metavar="FILE", help="the config to check, and to write with --write (its [game] names the nest)"
    )
    calibrate.add_argument("--write", action="store_true", help="write the map found into the config's [matrix]")
    calibrate.add_argument(
        "--mock",
        action="store_true",
        help="rehearse the walk without a Pi: a simulated builder on a simulated nest soldered as the config says",
    )
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
    game.add_argument(
        "--level",
        type=int,
        default=PLAY_LEVEL,
        metavar="N",
        help=f"the computer's level, from 1 (beginner) to the game's strongest (default {PLAY_LEVEL})",
    )
    game.add_argument("--side", choices=("red", "blue"), default="red", help="your side (default red; red starts)")
    game.add_argument(
        "--lineup",
        metavar="NAME",
        help="start from this lineup of the game's (default: Operation Cuckoo's standard; the battle game's "
        "armies set up at random, the computer's hidden from you)",
    )
    game.add_argument("--seed", type=int, default=0, help="the seed of the computer's deliberate mistakes (default 0)")
    game.set_defaults(run=run_play)

    history = argparse.ArgumentParser(add_help=False)
    history.add_argument("--config", metavar="FILE", help="the config whose game and database to use")
    history.add_argument(
        "--db", metavar="FILE", type=_database, help="the SQLite file of the games (default: the config's database)"
    )
    games = commands.add_parser("games", parents=[board, history], help="list the games in the record")
    games.set_defaults(run=run_games)
    export = commands.add_parser(
        "export", parents=[board, history], help="write games as game records (docs/game-records.md)"
    )
    export.add_argument("ids", nargs="*", type=int, metavar="GAME", help="the games' ids, from nestref games")
    export.add_argument("--all", action="store_true", help="every game in the record")
    export.add_argument("--output", metavar="FILE", help="where to write them (default: print them)")
    export.set_defaults(run=run_export)
    load = commands.add_parser(
        "import", parents=[board, history], help="check a game record file's games with the rules and store them"
    )
    load.add_argument("file", metavar="FILE", help="the game record file")
    load.set_defaults(run=run_import)

    draw = commands.add_parser("board", parents=[board, start], help="draw the nest as an SVG picture")
    draw.add_argument("--svg", metavar="FILE", required=True, help="where to write the picture")
    draw.set_defaults(run=run_board)
    return parser
