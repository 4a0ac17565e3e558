"""The computer opponent: Stockfish, the strongest free chess engine (Debian's and
Raspberry Pi OS's ``stockfish`` package), driven through python-chess's UCI engine API.

Each level sets Stockfish's own strength options (``Skill Level`` for the two weakest,
``UCI_LimitStrength`` with ``UCI_Elo`` above) and a node budget, so that a level plays
as strongly on a Pi Zero 2 W as on a desktop, only slower. The engine runs as a process
of its own for each choice (a tenth of a second to start), so nothing is left running
between moves and nothing needs closing. It is needed only when the computer plays or
gives a hint: two people play with no engine installed.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from firmware_host.errors import NestrefError
from firmware_host.games.base import ComputerChoice, ComputerLevel
from firmware_host.games.chess.moves import Move
from firmware_host.games.chess.position import ChessPosition

ENGINE_NAME = "stockfish"
DEBIAN_PLACE = Path("/usr/games/stockfish")  # Debian puts games outside a service's PATH
THREADS = 1  # a Pi Zero 2 W has four cores, and the daemon needs one
HASH_MB = 16


class EngineMissingError(NestrefError, FileNotFoundError):
    """Stockfish is not installed (or not where it was said to be)."""


class EngineFailedError(NestrefError, RuntimeError):
    """Stockfish stopped or answered what python-chess could not read."""


@dataclass(frozen=True)
class Strength:
    """One level as Stockfish plays it: its UCI options and the nodes it searches."""

    name: str
    options: Mapping[str, int | bool]
    nodes: int


STRENGTHS = (
    Strength("beginner", {"Skill Level": 0}, 2_000),
    Strength("casual", {"Skill Level": 4}, 20_000),
    Strength("club (about 1500)", {"UCI_LimitStrength": True, "UCI_Elo": 1500}, 100_000),
    Strength("strong club (about 1900)", {"UCI_LimitStrength": True, "UCI_Elo": 1900}, 200_000),
    Strength("expert (about 2300)", {"UCI_LimitStrength": True, "UCI_Elo": 2300}, 400_000),
    Strength("full strength", {}, 1_000_000),
)
LEVELS = tuple(ComputerLevel(number, strength.name) for number, strength in enumerate(STRENGTHS, start=1))


def engine_path() -> Path:
    """Where Stockfish is: on the PATH, or where Debian installs it. Raises
    :class:`EngineMissingError` saying how to install it."""
    found = shutil.which(ENGINE_NAME)
    if found is not None:
        return Path(found)
    if DEBIAN_PLACE.is_file():
        return DEBIAN_PLACE
    raise EngineMissingError(
        "the chess computer is Stockfish, which is not installed: `sudo apt install stockfish` "
        "(or `sh .ci/stockfish`); two people play without it"
    )


class StockfishComputer:
    """Stockfish as the computer opponent every game has. ``seed`` is unused: at the weak
    levels Stockfish draws its own mistakes."""

    def __init__(self, seed: int, *, path: Path | None = None) -> None:
        self.seed = seed
        self._path = path

    def choose(
        self, position: ChessPosition, level: int, *, clock: Callable[[], float], should_stop: Callable[[], bool]
    ) -> ComputerChoice:
        """The move at ``level`` (1 to :data:`LEVELS`' last)."""
        if not 1 <= level <= len(STRENGTHS):
            raise NestrefError(f"no chess level {level}: the levels are 1 to {len(STRENGTHS)}")
        strength = STRENGTHS[level - 1]
        return self._search(position, chess.engine.Limit(nodes=strength.nodes), strength.options, clock, should_stop)

    def analyse(
        self, position: ChessPosition, *, nodes: int | None, seconds: float | None, clock: Callable[[], float]
    ) -> ComputerChoice:
        """The best move within ``nodes`` or ``seconds`` at full strength (a second if
        neither is given)."""
        limit = chess.engine.Limit(nodes=nodes, time=seconds if seconds is not None or nodes else 1.0)
        return self._search(position, limit, {}, clock, lambda: False)

    def _search(
        self,
        position: ChessPosition,
        limit: chess.engine.Limit,
        options: Mapping[str, int | bool],
        clock: Callable[[], float],
        should_stop: Callable[[], bool],
    ) -> ComputerChoice:
        board = position.chess_board
        if board.is_game_over():
            raise NestrefError("the game is over: there is no move to choose")
        began = clock()
        path = self._path if self._path is not None else engine_path()
        try:
            with chess.engine.SimpleEngine.popen_uci(str(path)) as engine:
                engine.configure({"Threads": THREADS, "Hash": HASH_MB, **options})
                with engine.analysis(board, limit) as analysis:
                    for _ in analysis:
                        if should_stop():
                            analysis.stop()
                    best = analysis.wait()
                    info = analysis.info
        except FileNotFoundError as error:
            raise EngineMissingError(f"cannot start Stockfish at {path}: {error}") from None
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise EngineFailedError(f"Stockfish failed: {error}") from None
        if best.move is None:
            raise EngineFailedError("Stockfish gave no move")
        move = Move.of(best.move, is_capture=board.is_capture(best.move))
        return ComputerChoice(move, _facts(board, info, clock() - began))


def _facts(board: chess.Board, info: Mapping[str, object], seconds: float) -> dict[str, str]:
    """What the search found, for the log and the command line."""
    facts: dict[str, str] = {}
    score = info.get("score")
    if isinstance(score, chess.engine.PovScore):
        facts["score"] = str(score.pov(board.turn))
    for key in ("depth", "nodes"):
        if key in info:
            facts[key] = str(info[key])
    facts["time"] = f"{seconds:.2f} s"
    pv = info.get("pv")
    if isinstance(pv, list):
        facts["pv"] = " ".join(move.uci() for move in pv if isinstance(move, chess.Move))
    return facts
