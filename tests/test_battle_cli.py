"""``nestref --game battle play``: your own ranks shown and the computer's hidden, each
strike's result said, no take-back of a strike (its ranks were told), and help in the
battle game's own notation, not Operation Cuckoo's."""

from __future__ import annotations

import io
import re
from pathlib import Path

from firmware_host.cli import main
from firmware_host.cli.game import _last_strike_since_your_move, play_help
from firmware_host.games.base import Side
from firmware_host.games.battle import Setup, load
from firmware_host.games.battle.army import Rank
from tests.battle_helpers import position_of

GAME = load(None)
FIELD = GAME.field
LANES = "abefij"  # the columns between and beside the lakes


def play(monkeypatch, capsys, typed: str, *argv: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["--game", "battle", "play", *argv]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return str(captured.out)


def diagrams(out: str) -> list[list[str]]:
    """Every field printed, as its ten rows of letters, row 10 first."""
    found = []
    for block in re.findall(r"((?:^ *\d+ [^\n]+ \d+\n){10})", out, re.MULTILINE):
        found.append([" ".join(line.split()[1:-1]) for line in block.strip("\n").split("\n")])
    return found


def test_you_see_your_own_ranks_and_none_of_the_computers(monkeypatch, capsys):
    out = play(monkeypatch, capsys, "quit\n", "--seed", "3")
    rows = diagrams(out)[0]
    blue_rows, red_rows = rows[:4], rows[6:]
    assert {letter for row in blue_rows for letter in row.split()} <= {"x", "."}
    red_letters = [letter for row in red_rows for letter in row.split() if letter != "."]
    assert len(red_letters) == 36 and "M" in red_letters and "F" in red_letters and "X" not in red_letters
    assert "M marshal, G general, C colonel, J major, P captain" in out  # a key to the letters


def test_as_blue_you_see_blues_ranks(monkeypatch, capsys):
    out = play(monkeypatch, capsys, "quit\n", "--side", "blue")
    rows = diagrams(out)[-1]
    assert {letter for row in rows[6:] for letter in row.split()} <= {"X", "."}
    assert "m" in " ".join(rows[:4]) and "red plays " in out  # the computer's first move


def test_each_strike_is_said_with_both_ranks(monkeypatch, capsys):
    typed = "".join(f"{c}4-{c}5\n{c}5-{c}6\n{c}6x{c}7\n" for c in LANES) + "quit\n"
    out = play(monkeypatch, capsys, typed, "--seed", "1")
    strikes = re.findall(r"^strike ([a-j]\d+x[a-j]\d+): (.+)$", out, re.MULTILINE)
    assert strikes, "some strike was made and said"
    names = "|".join(rank.name for rank in GAME.field.army)
    for _, words in strikes:
        assert re.fullmatch(rf"({names}) strikes (the flag|{names}): .+", words), words


def test_the_help_is_the_battle_games_and_not_operation_cuckoos(monkeypatch, capsys):
    out = play(monkeypatch, capsys, "help\nquit\n")
    assert "Type a move as c3-c4 or a capture as c3xc4" in out
    start = GAME.start("demo", Side.RED)
    assert "c3-c4 or a capture as c3xc4" in play_help(GAME, start)  # a move of the battle game, and its strike


def test_the_command_lines_help_names_no_lineup_of_one_game_alone(capsys):
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "advanced-1" not in text and "1 (beginner) to 5 (strongest)" not in text
    assert "the battle game" in text


def test_a_strike_is_never_taken_back(monkeypatch, capsys):
    position = position_of({"e4": "red scout", "e5": "blue sergeant", "a4": "red miner"})
    assert not _last_strike_since_your_move(position, Side.RED)
    position.push(GAME.read_move("a4-a5"))
    position.push(GAME.read_move("e5xe4"))  # blue's sergeant strikes red's scout
    assert _last_strike_since_your_move(position, Side.RED)
    position.push(GAME.read_move("a5-a6"))
    assert _last_strike_since_your_move(position, Side.BLUE)  # blue's last move was the strike
    position.push(GAME.read_move("e4-e5"))
    assert not _last_strike_since_your_move(position, Side.BLUE)
    assert not _last_strike_since_your_move(position, Side.RED)


def test_the_docs_say_the_nest_referees_the_battle_game():
    root = Path(__file__).resolve().parent.parent
    for name in ("README.md", "docs/rules-battle.md"):
        text = " ".join((root / name).read_text(encoding="utf-8").split())
        assert "still to come" not in text and "not here yet" not in text.lower(), name
    assert "## 11. On the nest" in (root / "docs/rules-battle.md").read_text(encoding="utf-8")


# -- a sensor log with the check after the set-ups, through nestref referee --events -------


def checked_log(belief: dict[str, Rank], red: Setup, blue: Setup, seed: int) -> str:
    """A log of both set-ups put down (red's pieces as ``belief`` has them), red's check
    asked with ``seed``, and red's player lifting, for each piece asked for, one they
    believe is it (another they believe is if refused) and putting it back."""
    lines = [f"# setup red: {red.to_text(FIELD)}", f"# setup blue: {blue.to_text(FIELD)}", f"# check red: {seed}"]
    time = 0
    for cell in sorted(red.cells | blue.cells, key=FIELD.index):
        time += 50
        lines.append(f"{time} {cell}+")
    time += 1000
    check, refused = GAME.setup_check(red, seed=seed), set()
    while not check.is_complete():
        asked = check.next_rank
        choices = [c for c, r in sorted(belief.items()) if r == asked and c not in check.checked and c not in refused]
        if not choices:
            break
        cell = choices[0]
        lines += [f"{time} {cell}-", f"{time + 400} {cell}+"]
        time += 900
        if check.holds(cell):
            check = check.lift(cell)
        else:
            refused.add(cell)
    return "\n".join(lines) + "\n"


def referee_events(tmp_path: Path, text: str, capsys) -> tuple[int, str]:
    path = tmp_path / "battle.log"
    path.write_text(text, encoding="utf-8")
    code = main(["--game", "battle", "referee", "--events", str(path)])
    return code, capsys.readouterr().out


def test_a_log_whose_pieces_match_passes_the_check_and_the_game_starts(tmp_path, capsys):
    red, blue = (FIELD.lineup("demo").setups[side] for side in Side)
    code, out = referee_events(tmp_path, checked_log(dict(red.ranks), red, blue, seed=7), capsys)
    assert code == 0
    assert "red set-up: checking, 0 of 35 checked" in out and "red set-up: checking, 34 of 35 checked" in out
    assert "game 1 starts: own, red to move" in out
    assert "blue set-up: checking" not in out  # blue asked for none
    names = "|".join(rank.name for rank in FIELD.army)
    assert not re.search(rf"\b({names})\b", out), "the referee's public signals name no rank"


def test_a_log_with_two_pieces_swapped_is_caught_by_the_check_and_no_game_starts(tmp_path, capsys):
    red, blue = (FIELD.lineup("demo").setups[side] for side in Side)
    a, b = "a4", "e2"  # a Scout and a Sergeant, put down on each other's squares
    assert red.ranks[a] != red.ranks[b]
    belief = {**red.ranks, a: red.ranks[b], b: red.ranks[a]}
    code, out = referee_events(tmp_path, checked_log(belief, red, blue, seed=7), capsys)
    assert code == 0
    assert "red set-up: checking" in out and "game 1 starts" not in out


def test_a_check_line_that_is_wrong_is_named(tmp_path, capsys):
    red, blue = (FIELD.lineup("demo").setups[side] for side in Side)
    text = f"# setup red: {red.to_text(FIELD)}\n# setup blue: {blue.to_text(FIELD)}\n# check red: soon\n0 a1+\n"
    path = tmp_path / "bad.log"
    path.write_text(text, encoding="utf-8")
    assert main(["--game", "battle", "referee", "--events", str(path)]) == 2
    assert "bad.log:3: a check's seed is a whole number, 0 or more, got 'soon'" in capsys.readouterr().err
