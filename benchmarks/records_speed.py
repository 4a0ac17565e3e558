"""Reading game records against python-chess reading PGN, in one run.

Both readers parse the text and check every move with their game's rules: nestref's
reader (``firmware_host.records``) replays Operation Cuckoo games through the game's
interface; python-chess's ``chess.pgn.read_game`` parses SAN, which it checks against the
legal moves, and builds its game tree. The games are random legal games (seeded) of
about the same length in plies on both sides. The rounds alternate between the two so
that a busy machine slows both alike; each reader's best round counts.

    python benchmarks/records_speed.py [--games 200] [--rounds 3]

The figures are plies read per second; the last line is the ratio of nestref's to
python-chess's. The budget: a thousand games (random ones, as long as they last, up to 60
plies) read in 10 s on a Pi Zero 2 W, so 1 s here (a tenth); docs/game-records.md gives the
figures measured.
"""

from __future__ import annotations

import argparse
import io
import platform
import random
import sys
import time

import chess
import chess.pgn

from firmware_host.games import load_game
from firmware_host.games.base import Game, Side
from firmware_host.records import Event, GameRecord, Played, read_records, write_records

PLIES = 60
BUDGET_SECONDS = 1.0  # for BUDGET_GAMES games, here
BUDGET_GAMES = 1000


def cuckoo_records(game: Game, count: int, rng: random.Random) -> tuple[str, int]:
    """The text of ``count`` random games of up to :data:`PLIES` plies, and their plies."""
    records, plies = [], 0
    for number in range(count):
        lineup = rng.choice(game.lineups)
        position = game.start(lineup, Side.RED)
        start = position.to_text()
        events: list[Event] = []
        while len(events) < PLIES and position.legal_moves():
            move = rng.choice(list(position.legal_moves()))
            position.push(move)
            events.append(Played(move.to_text()))
        outcome = position.outcome()
        result, how = game.outcome_record(outcome) if outcome is not None else ("*", "unterminated")
        records.append(
            GameRecord(
                game.name, game.board.name, lineup, start, 1_800_000_000 + number, result, how or "draw", tuple(events)
            )
        )
        plies += len(events)
    return write_records(records, game=game), plies


def chess_games(count: int, rng: random.Random) -> tuple[str, int]:
    """The PGN of ``count`` random chess games of up to :data:`PLIES` plies, and their plies."""
    texts, plies = [], 0
    for _ in range(count):
        board = chess.Board()
        while len(board.move_stack) < PLIES and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        plies += len(board.move_stack)
        texts.append(str(chess.pgn.Game.from_board(board)))
    return "\n\n".join(texts) + "\n", plies


def read_chess(text: str) -> int:
    handle, games = io.StringIO(text), 0
    while chess.pgn.read_game(handle) is not None:
        games += 1
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per reader (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per reader; the best counts (default 3)")
    args = parser.parse_args(argv)
    rng = random.Random(17)
    game = load_game("cuckoo")
    ours, our_plies = cuckoo_records(game, args.games, rng)
    theirs, their_plies = chess_games(args.games, rng)
    best = {"nestref": float("inf"), "python-chess": float("inf")}
    for _ in range(args.rounds):
        start = time.perf_counter()
        assert len(read_records(ours, game=game)) == args.games
        best["nestref"] = min(best["nestref"], time.perf_counter() - start)
        start = time.perf_counter()
        assert read_chess(theirs) == args.games
        best["python-chess"] = min(best["python-chess"], time.perf_counter() - start)
    ours_rate, theirs_rate = our_plies / best["nestref"], their_plies / best["python-chess"]
    print(f"python {platform.python_version()} on {platform.machine()}, {args.games} games, best of {args.rounds}")
    print(f"nestref records:  {our_plies} plies in {best['nestref'] * 1000:.1f} ms = {ours_rate:,.0f} plies/s")
    print(f"python-chess PGN: {their_plies} plies in {best['python-chess'] * 1000:.1f} ms = {theirs_rate:,.0f} plies/s")
    seconds = BUDGET_GAMES * best["nestref"] / args.games
    print(
        f"budget: {BUDGET_GAMES} games of {our_plies / args.games:.0f} plies on average read in {seconds:.2f} s"
        f" (budget {BUDGET_SECONDS:g} s)"
    )
    print(f"ratio: {ours_rate / theirs_rate:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
