"""The page's JavaScript as files: every module type-checked (``// @ts-check``, under the
pinned TypeScript of ``.ci/tsc``), every import one the servers serve, and every game's
pieces drawn from data of the kinds the page's one renderer draws (``page/pieces.js``).
The type check itself runs in the test command (``sh .ci/tsc``); what the modules do is
tested in Chromium (``tests/test_page_*.py``, ``test_sim_browser.py`` and the others)."""

from __future__ import annotations

import json
import re
from numbers import Real
from pathlib import Path
from typing import Any

import pytest

from firmware_host.games import game_names, load_game
from firmware_host.web.live import PAGE_FILES

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "firmware_host" / "web" / "page"
MODULES = sorted(PAGE.glob("*.js"))
IMPORT = re.compile(r'^import [^;]*? from "\./([\w-]+\.js)";$', re.MULTILINE)

# The parts pieces.js draws, and the numbers each has (required, optional).
PARTS = {
    "circle": ({"r"}, {"cx", "cy"}),
    "ellipse": ({"rx", "ry"}, {"cx", "cy"}),
    "rect": ({"x", "y", "width", "height"}, {"rx", "rotate"}),
}
PATH_COMMANDS = {"M": 2, "L": 2, "C": 6, "Q": 4, "Z": 0}  # absolute, no arcs: their flags are no lengths


def imports(module: Path) -> list[str]:
    return IMPORT.findall(module.read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.name)
def test_every_module_is_type_checked_and_imports_only_the_pages_own(module: Path) -> None:
    text = module.read_text(encoding="utf-8")
    assert text.startswith("// @ts-check\n"), f"{module.name} is not type-checked"
    for name in imports(module):
        assert (PAGE / name).is_file(), f"{module.name} imports {name}, which is not in page/"
    # Every import is a relative ES module import; nothing is fetched from elsewhere.
    assert not re.search(r'^import .* from "(?!\./)', text, re.MULTILINE)


def test_the_live_boards_server_serves_every_module_its_page_loads() -> None:
    needed, todo = set(), ["live.js"]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += imports(PAGE / name)
    assert needed <= set(PAGE_FILES), sorted(needed - set(PAGE_FILES))


def test_typescript_is_pinned_exactly_and_locked_and_the_check_is_strict() -> None:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert "dependencies" not in package and set(package["devDependencies"]) == {"typescript"}
    version = package["devDependencies"]["typescript"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"typescript {version!r} is not an exact version"
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    assert set(lock["packages"]) == {"", "node_modules/typescript"}
    assert lock["packages"]["node_modules/typescript"]["version"] == version
    options = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))
    assert options["include"] == ["firmware_host/web/page/*.js"]
    checks = options["compilerOptions"]
    assert checks["checkJs"] is checks["strict"] is checks["noEmit"] is True
    assert "node_modules/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


@pytest.mark.parametrize("name", game_names())
def test_every_piece_of_every_game_is_drawn_from_data_the_page_draws(name: str) -> None:
    pieces = json.loads(json.dumps(load_game(name).for_page()))["pieces"]
    assert pieces
    for letter, piece in pieces.items():
        assert piece["drawing"], letter
        for part in piece["drawing"]:
            kind = part["kind"]
            if kind == "polygon":
                assert len(part["points"]) >= 3 and all(len(p) == 2 and all(map(is_number, p)) for p in part["points"])
            elif kind == "path":
                for command, *numbers in part["d"]:
                    assert len(numbers) == PATH_COMMANDS[command] and all(map(is_number, numbers)), (letter, command)
            else:
                required, optional = PARTS[kind]
                numbers = {key for key in part if key != "kind"}
                assert required <= numbers <= required | optional, (letter, part)
                assert all(is_number(part[key]) for key in numbers), (letter, part)
            # In units of a cell's radius, a drawing fits in its cell (a square's is 0.85 wide).
            assert all(abs(value) <= 1 for value in _extent(part)), (letter, part)


def _extent(part: dict[str, Any]) -> list[float]:
    """The coordinates a part reaches, around the cell's centre."""
    kind = part["kind"]
    if kind == "polygon":
        return [value for point in part["points"] for value in point]
    if kind == "path":
        return [value for _, *numbers in part["d"] for value in numbers]
    if kind == "rect":
        return [part["x"], part["y"], part["x"] + part["width"], part["y"] + part["height"]]
    across = (part["r"], part["r"]) if kind == "circle" else (part["rx"], part["ry"])
    x, y = part.get("cx", 0), part.get("cy", 0)
    return [x - across[0], x + across[0], y - across[1], y + across[1]]
