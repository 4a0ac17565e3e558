"""An independent, deliberately naive implementation of ``rules.md`` for the default
nest, used as an oracle for the engine.

It follows the contract's own words: cells are (row, position) pairs and neighbours
come from the formulas of §1, not from hex coordinates, so a mistake in the engine's
coordinates or bit tricks cannot hide in both. A position is a dict from cell name to
piece letter plus the side to move (``"r"`` or ``"b"``).
"""

from __future__ import annotations

ROW_LENGTHS = {row: 9 - abs(row - 5) for row in range(1, 10)}
DIRECTIONS = ("E", "W", "NE", "NW", "SE", "SW")
FORWARD = {"r": ("NW", "NE"), "b": ("SW", "SE")}
HOMEBASES = {"r": {"b1", "c1", "d1"}, "b": {"b9", "c9", "d9"}}
CELLS = [f"{chr(ord('a') + i)}{row}" for row in range(1, 10) for i in range(ROW_LENGTHS[row])]

Board = dict[str, str]


def split(cell: str) -> tuple[int, int]:
    return int(cell[1:]), ord(cell[0]) - ord("a")


def neighbour(cell: str, direction: str) -> str | None:
    """§1, word for word."""
    r, i = split(cell)
    if direction == "E":
        r2, i2 = r, i + 1
    elif direction == "W":
        r2, i2 = r, i - 1
    elif direction == "NE":
        r2, i2 = (r + 1, i + 1) if r < 5 else (r + 1, i)
    elif direction == "NW":
        r2, i2 = (r + 1, i) if r < 5 else (r + 1, i - 1)
    elif direction == "SE":
        r2, i2 = (r - 1, i + 1) if r > 5 else (r - 1, i)
    else:  # SW
        r2, i2 = (r - 1, i) if r > 5 else (r - 1, i - 1)
    if r2 not in ROW_LENGTHS or not 0 <= i2 < ROW_LENGTHS[r2]:
        return None
    return f"{chr(ord('a') + i2)}{r2}"


def side_of(letter: str) -> str:
    return "r" if letter.isupper() else "b"


def moves_of(board: Board, side: str) -> list[str]:
    """§3: captures if any, else forward steps and double steps."""
    captures, steps = [], []
    for cell, letter in board.items():
        if side_of(letter) != side:
            continue
        long_range = letter.lower() in "wc"
        for direction in DIRECTIONS:
            one = neighbour(cell, direction)
            if one is None:
                continue
            two = neighbour(one, direction)
            if one in board:
                if side_of(board[one]) != side:
                    captures.append(f"{cell}x{one}")
                continue
            if long_range and two is not None and two in board and side_of(board[two]) != side:
                captures.append(f"{cell}x{two}")
            if direction in FORWARD[side]:
                steps.append(f"{cell}-{one}")
                if long_range and two is not None and two not in board:
                    steps.append(f"{cell}-{two}")
    return captures or steps


def outcome(board: Board, to_move: str) -> str | None:
    """§4 read from the board alone: 'red', 'blue', 'draw' or None (ongoing), with the
    condition number as ``red/2``."""
    name = {"r": "red", "b": "blue"}
    other = {"r": "b", "b": "r"}
    for condition in (1, 2, 3, 4):
        for side in ("r", "b"):
            own = {cell: letter for cell, letter in board.items() if side_of(letter) == side}
            cuckoo = [cell for cell, letter in own.items() if letter.lower() == "c"]
            if condition == 1 and cuckoo and len(own) == 1:
                return f"{name[side]}/1"
            if condition == 2 and not cuckoo:
                return f"{name[other[side]]}/2"
            if condition == 3 and any(cell in HOMEBASES[other[side]] for cell in cuckoo):
                return f"{name[side]}/3"
            if condition == 4 and any(cell in HOMEBASES[other[side]] for cell in own if own[cell].lower() != "c"):
                return f"{name[other[side]]}/4"
    if not moves_of(board, "r") and not moves_of(board, "b"):
        return "draw"
    return None


def legal_moves(board: Board, to_move: str) -> list[str]:
    """All legal moves, ``pass`` included; none once the game is over."""
    if outcome(board, to_move) is not None:
        return []
    return moves_of(board, to_move) or ["pass"]


def play(board: Board, move: str) -> Board:
    """The board after a legal move (a pass leaves it as it is)."""
    if move == "pass":
        return dict(board)
    origin, target = move.replace("x", "-").split("-")
    after = dict(board)
    after[target] = after.pop(origin)
    return after


def perft(board: Board, to_move: str, depth: int) -> int:
    if depth == 0:
        return 1
    other = "b" if to_move == "r" else "r"
    return sum(perft(play(board, move), other, depth - 1) for move in legal_moves(board, to_move))


def from_nfn(text: str) -> tuple[Board, str]:
    rows, side = text.split(" ")
    board: Board = {}
    for row_number, row_text in zip(range(9, 0, -1), rows.split("/"), strict=True):
        i = 0
        for char in row_text:
            if char.isdigit():
                i += int(char)
            else:
                board[f"{chr(ord('a') + i)}{row_number}"] = char
                i += 1
        assert i == ROW_LENGTHS[row_number], row_text
    return board, side
