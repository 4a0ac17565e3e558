"""Chess behind the one interface: python-chess's rules as nestref's position, what each
kind of move does to the switches (its footprint), why an illegal move is refused, how a
game ends and is kept, PGN written and read back, the pictures, and the command line."""

from __future__ import annotations

import random

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.errors import BoardFileError, NotationError
from firmware_host.games import game_names, load_game
from firmware_host.games.base import Footprint, Game, Side
from firmware_host.games.base import Position as GamePosition
from firmware_host.games.chess import ChessBoard, ChessGame, ChessPosition, Move, Outcome, PgnTags, load
from firmware_host.games.chess.moves import Ending, Rule

GAME = load(None)


def position(fen: str) -> ChessPosition:
    return GAME.read_position(fen)


def played(*moves: str, fen: str = chess.STARTING_FEN) -> ChessPosition:
    found = position(fen)
    for text in moves:
        found.push(Move.from_text(text))
    return found


def run(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().out.splitlines()


def test_chess_is_a_game_of_its_folder_and_of_the_protocol():
    assert "chess" in game_names() and isinstance(load_game("chess"), ChessGame)
    game: Game = GAME  # mypy checks the game against the protocol
    start: GamePosition = game.start("standard", Side.RED)
    assert game.board.name == "square-8" and game.board.cell_shape == "square" and len(game.board.cells) == 64
    assert start.turn is Side.RED and start.to_text() == chess.STARTING_FEN
    assert game.start("standard", Side.BLUE).to_text().split()[1] == "b"
    assert game.lineups == ("standard", "kings-and-pawns")


@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [
        (chess.STARTING_FEN, 3, 8_902),  # the published perft counts (chessprogramming.org)
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, 2_039),  # "Kiwipete"
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2_812),  # en passant and checks
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 2, 264),  # promotions
    ],
)
def test_perft_counts_are_the_published_ones_by_the_game_and_by_the_position_protocol(fen, depth, count):
    from firmware_host.games.base import perft

    assert GAME.perft(position(fen), depth) == count
    assert perft(position(fen), depth) == count


def test_a_move_empties_its_square_and_fills_its_target_and_a_slide_crosses_the_squares_between():
    start = position(chess.STARTING_FEN)
    assert start.footprint(Move.from_text("e2e4")) == Footprint(
        frozenset({"e2"}), frozenset({"e4"}), passes=frozenset({"e3"})
    )
    assert start.footprint(Move.from_text("g1f3")) == Footprint(frozenset({"g1"}), frozenset({"f3"}))  # lifted over
    bishop = played("e2e4", "e7e5")
    slide = bishop.footprint(Move.from_text("f1c4"))  # (the corners it brushes are no part of it)
    assert slide == Footprint(frozenset({"f1"}), frozenset({"c4"}), passes=frozenset({"e2", "d3"}))


def test_a_capture_needs_its_target_seen_empty_and_en_passant_empties_the_pawn_beside():
    capture = played("e2e4", "d7d5")
    assert capture.footprint(Move.from_text("e4d5")) == Footprint(frozenset({"e4"}), proofs=frozenset({"d5"}))
    passant = played("e2e4", "a7a6", "e4e5", "d7d5")
    move = next(m for m in passant.legal_moves() if m.to_text() == "e5d6")
    assert move.is_capture
    assert passant.footprint(move) == Footprint(frozenset({"e5", "d5"}), frozenset({"d6"}))


def test_castling_empties_the_king_and_rook_squares_and_fills_the_two_they_go_to():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    short = position(fen).footprint(Move.from_text("e1g1"))
    assert short == Footprint(frozenset({"e1", "h1"}), frozenset({"g1", "f1"}))
    long = position(fen).footprint(Move.from_text("e1c1"))
    assert long == Footprint(frozenset({"e1", "a1"}), frozenset({"c1", "d1"}), passes=frozenset({"b1"}))
    black = position(fen.replace(" w ", " b ")).footprint(Move.from_text("e8g8"))
    assert black.empties == {"e8", "h8"} and black.fills == {"g8", "f8"}


def test_a_promotion_is_four_moves_the_switches_cannot_tell_apart_and_the_queen_is_the_default():
    board = position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    promotions = [move for move in board.legal_moves() if move.origin == "e7"]
    assert sorted(move.to_text() for move in promotions) == ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    assert len({board.footprint(move) for move in promotions}) == 1
    assert GAME.default_choice(promotions) == Move("e7", "e8", chess.QUEEN)
    assert GAME.default_choice(promotions[:1]) is None  # one move: nothing to choose
    other = [Move("e7", "e8", chess.QUEEN), Move("a2", "a3")]
    assert GAME.default_choice(other) is None  # not one gesture's choices: the players say
    assert load_game("cuckoo").default_choice(promotions) is None  # the default hook


@pytest.mark.parametrize(
    ("moves", "fen", "attempt", "rule", "words"),
    [
        ((), chess.STARTING_FEN, "e2e5", Rule.OUT_OF_REACH, "a pawn does not move from e2 to e5"),
        ((), chess.STARTING_FEN, "e7e5", Rule.NOT_YOUR_TURN, "black pawn is not to move: it is white's turn"),
        ((), chess.STARTING_FEN, "e4e5", Rule.NO_PIECE, "no piece on e4"),
        ((), chess.STARTING_FEN, "d1d2", Rule.OWN_PIECE, "d2 holds a white pawn"),
        ((), chess.STARTING_FEN, "a1a3", Rule.BLOCKED, "cannot pass over"),
        (("e2e4", "f7f6", "d1h5"), chess.STARTING_FEN, "e8f7", Rule.KING_IN_CHECK, "in check"),
        ((), "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "e1c1", Rule.CASTLING, "must be empty"),
        ((), "r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", "e1g1", Rule.CASTLING, "through or into check"),
        ((), "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1g1", Rule.CASTLING, "has moved"),
        ((), "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8", Rule.PROMOTION, "say which piece the pawn becomes"),
        ((), "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e1e2q", Rule.PROMOTION, "only a pawn"),
    ],
)
def test_an_illegal_move_says_the_rule_it_breaks(moves, fen, attempt, rule, words):
    board = played(*moves, fen=fen)
    illegal = board.check_move(Move.from_text(attempt))
    assert illegal is not None and illegal.rule is rule and words in illegal.reason
    assert GAME.rule_words(rule) != GAME.UNKNOWN_RULE_WORDS


@pytest.mark.parametrize(
    ("moves", "fen", "outcome"),
    [
        (("f2f3", "e7e5", "g2g4", "d8h4"), chess.STARTING_FEN, Outcome(Side.BLUE, Ending.CHECKMATE)),
        ((), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Outcome(None, Ending.STALEMATE)),
        (("e1d1",), "4k3/8/8/8/8/8/8/3qK3 w - - 0 1", Outcome(None, Ending.INSUFFICIENT_MATERIAL)),
        (("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"), chess.STARTING_FEN,
         Outcome(None, Ending.THREEFOLD_REPETITION)),
        (("a1a2",), "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", Outcome(None, Ending.FIFTY_MOVES)),
    ],
)  # fmt: skip
def test_the_game_ends_as_python_chess_says_and_the_record_keeps_how(moves, fen, outcome):
    board = played(*moves, fen=fen)
    assert board.outcome() == outcome and board.is_over() and board.legal_moves() == []
    assert GAME.outcome_from_record(*GAME.outcome_record(outcome)) == outcome
    assert GAME.outcome_words(outcome)


def test_the_mated_kings_square_is_lit_and_a_bad_record_is_named():
    mated = played("f2f3", "e7e5", "g2g4", "d8h4")
    outcome = mated.outcome()
    assert outcome is not None and GAME.outcome_cell(mated, outcome) == "e1"
    assert GAME.outcome_words(GAME.resignation(Side.RED)) == "white resigned"
    for result, how in (("draw", None), ("draw", "checkmate"), ("red", "stalemate"), ("red", "nonsense")):
        with pytest.raises(NotationError):
            GAME.outcome_from_record(result, how)


def test_moves_and_positions_read_strictly():
    assert Move.from_text("e7-e8=Q") == Move("e7", "e8", chess.QUEEN) and Move.from_text("e4xd5").to_text() == "e4d5"
    for text in ("e2", "e9e4", "e2e2", "e7e8k2", "castle"):
        with pytest.raises(NotationError):
            Move.from_text(text)
    with pytest.raises(NotationError, match="cannot read the position"):
        GAME.read_position("not a fen")
    with pytest.raises(NotationError, match="no position of chess"):
        GAME.read_position("8/8/8/8/8/8/8/8 w - - 0 1")


def test_a_board_file_with_a_bad_lineup_is_refused_naming_the_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "mine"\n[lineups.odd]\nfen = "8/8/8/8/8/8/8/8 w - - 0 1"\n')
    with pytest.raises(BoardFileError, match=r"bad.toml: lineups.odd.fen: not a position of chess"):
        ChessBoard.load(path)
    path.write_text(
        'name = "mine"\n[lineups.start]\nfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"\n'
    )
    assert load(path).board.name == "mine" and load(path).lineups == ("start",)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_game_as_pgn_is_read_back_by_python_chess_with_the_same_moves_and_result(seed):
    rng = random.Random(seed)
    board = position(chess.STARTING_FEN)
    while board.outcome() is None and len(board.move_stack) < 120:
        board.push(rng.choice(board.legal_moves()))
    outcome = board.outcome() or (GAME.resignation(board.turn) if rng.random() < 0.5 else None)
    text = GAME.to_pgn(board, outcome, PgnTags(white="Ann", black="the computer", date="2026.12.02"))
    import io

    read = chess.pgn.read_game(io.StringIO(text))
    assert read is not None and not read.errors
    assert [move.uci() for move in read.mainline_moves()] == [move.to_text() for move in board.move_stack]
    assert read.headers["White"] == "Ann" and read.headers["Date"] == "2026.12.02"
    assert read.headers["Result"] == (
        "*" if outcome is None else {Side.RED: "1-0", Side.BLUE: "0-1", None: "1/2-1/2"}[outcome.winner]
    )
    again, again_outcome = GAME.from_pgn(text)
    assert again.to_text() == board.to_text() and again_outcome == outcome


def test_a_pgn_of_another_start_and_a_bad_one():
    board = played("e7e5", fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    text = GAME.to_pgn(board, None)
    assert '[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]' in text
    assert GAME.from_pgn(text)[0].to_text() == board.to_text()
    with pytest.raises(NotationError):
        GAME.from_pgn("1. e4 e5 2. Ke3 *")
    with pytest.raises(NotationError):
        GAME.from_pgn("")


def test_the_pictures_and_the_page():
    start = GAME.start("standard", Side.RED)
    diagram = GAME.diagram(start).splitlines()
    assert diagram[1] == "  8 r n b q k b n r 8" and diagram[8] == "  1 R N B Q K B N R 1"
    svg = GAME.picture(start.pieces())
    assert svg.startswith("<svg") and svg.count('class="cell"') == 64 and "\u265a" in svg
    page = GAME.for_page()
    assert page["board"]["shape"] == "square" and page["board"]["columns"] == 8
    assert {piece["shape"] for piece in page["pieces"].values()} == {
        "king",
        "queen",
        "rook",
        "bishop",
        "knight",
        "pawn",
    }
    assert page["pieces"]["K"]["side"] == "red" and page["pieces"]["k"]["side"] == "blue"


def test_the_command_line_plays_chess(capsys):
    code, out = run(capsys, "--game", "chess", "position", "e2e4", "e7e5", "g1f3")
    assert code == 0 and out == ["rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "result: ongoing"]
    code, out = run(capsys, "--game", "chess", "position", "f2f3", "e7e5", "g2g4", "d8h4")
    assert out[-1] == "result: blue"
    code, out = run(capsys, "--game", "chess", "perft", "3")
    assert out[-1] == "8902"
    code, out = run(capsys, "--game", "chess", "show", "e2e4")
    assert "  4 . . . . P . . . 4" in out and any("e7e5" in line for line in out)
    code = main(["--game", "chess", "position", "e2e5"])
    assert code == 2 and "a pawn does not move from e2 to e5" in capsys.readouterr().err
