"""Fuzz tests of the files nestref reads from anyone: game records (``nestref import``),
the config, board files (both games) and sensor logs (``nestref referee``), each through
the command a user runs, on bytes that are random or a valid file changed here and
there (a terminal's escapes, a byte that is not UTF-8, a piece of the file repeated a
thousand times, a cut).

Each test runs a fixed number of examples of at most some 100 kB, so its time is
bounded in CI, and asserts of every one: no traceback (an error that is not nestref's
own escapes ``main`` and fails the test; nothing is logged with one), a clean read (exit
code 0) or a clear error (exit code 2, one line naming the file), memory bounded by the
input's size, nothing written from a refused input (the record ``--db`` names is not
made), and nothing printed that is not printable.
"""

from __future__ import annotations

import contextlib
import io
import logging
import random
import tempfile
import tracemalloc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.daemon.config import default_config_text
from firmware_host.games.assets import GameAssets
from firmware_host.records import write_record
from tests.battle_hands import play_battle_game
from tests.records_helpers import GAMES, records

EXAMPLES = 60  # per test: the fixed budget
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

# Memory: what a command takes whatever its input (the games, the config's defaults,
# SQLite), and at most this many bytes more per byte of input.
BASE_BYTES = 8 * 2**20
BYTES_PER_BYTE = 64

CORPUS = Path(__file__).parent / "fixtures" / "corpus"

# What an attacker or a careless editor puts in a file.
_NASTY = [
    b"\x1b[2J",  # clear the screen
    b"\x1b]0;owned\x07",  # retitle the terminal
    b"\x00",
    b"\x07",
    b"\x08",
    b"\x7f",
    b"\xc2\x9b",  # the one-character CSI, in UTF-8
    "\u202e".encode(),  # right-to-left override
    "\ufeff".encode(),  # a byte-order mark
    b"\xff",  # not UTF-8
    b"\xc3",  # half a character
    b"\xed\xa0\x80",  # a surrogate, which UTF-8 may not hold
    b"\r",
    b"\r\n",
    b"\t",
    b"\n",
    b" ",
    b'"',
    b"\\",
    b"[",
    b"]",
    b"{",
    b"}",
    b"#",
    b"=",
    b"-",
    b"+",
    b"9" * 30,
]


@st.composite
def _changed(draw: st.DrawFn, seeds: st.SearchStrategy[bytes]) -> bytes:
    """A valid file (one of ``seeds``) with up to four changes."""
    data = bytearray(draw(seeds))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(("insert", "replace", "cut", "repeat")))
        if kind == "cut":
            del data[at : at + draw(st.integers(1, 200))]
        elif kind == "repeat":  # long lines, long values, many games
            piece = bytes(data[at : at + draw(st.integers(1, 40))]) or b"a"
            data[at:at] = piece * draw(st.integers(2, 2_000))
        else:
            payload = draw(st.sampled_from(_NASTY) | st.binary(min_size=1, max_size=8))
            data[at : at + (kind == "replace")] = payload
    return bytes(data)


def _inputs(seeds: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    return st.one_of(
        _changed(seeds),
        _changed(seeds),
        st.binary(max_size=400),
        st.text(max_size=400).map(lambda text: text.encode("utf-8", "surrogatepass")),
    )


@dataclass(frozen=True)
class Ran:
    """What a command did with a fuzzed file."""

    code: int
    out: str
    err: str
    peak_bytes: int  # the most memory it held above what was held before
    tracebacks: tuple[str, ...]  # log records with one


class _Logged(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.tracebacks: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.stack_info:
            self.tracebacks.append(self.format(record))


def _run(argv: Sequence[str]) -> Ran:
    out, err, logged = io.StringIO(), io.StringIO(), _Logged()
    root = logging.getLogger()
    root.addHandler(logged)
    tracemalloc.start()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        root.removeHandler(logged)
    return Ran(code, out.getvalue(), err.getvalue(), peak, tuple(logged.tracebacks))


def _check(ran: Ran, data: bytes, path: Path) -> None:
    """What every command does with every file, as the module's docstring says."""
    assert not ran.tracebacks, ran.tracebacks
    assert ran.code in (0, 2), (ran.code, ran.err)
    if ran.code == 2:
        assert ran.err.count("\n") == 1 and ran.err.startswith("nestref: "), ran.err
        assert str(path) in ran.err or "--" in ran.err, ran.err  # names the file (or the option it came by)
    for line in (ran.out + ran.err).split("\n"):
        assert line.isprintable(), line
    assert ran.peak_bytes <= BASE_BYTES + BYTES_PER_BYTE * len(data), (ran.peak_bytes, len(data))


@contextlib.contextmanager
def _file(data: bytes, name: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        yield path


# -- game records: nestref import -------------------------------------------------------------


def _record_seeds() -> st.SearchStrategy[tuple[str, bytes]]:
    return st.sampled_from(sorted(GAMES)).flatmap(
        lambda name: st.tuples(
            st.just(name),
            st.lists(records(GAMES[name]), min_size=1, max_size=3).map(
                lambda games: "".join(write_record(game, game=GAMES[name]) for game in games).encode()
            ),
        )
    )


_WON = (Path(__file__).parent.parent / "docs" / "game-records.md").read_text(encoding="utf-8")
_WON = _WON.split("<!-- example -->\n```text\n", 1)[1].split("```", 1)[0]  # the docs' example


@FUZZ
@given(_record_seeds().flatmap(lambda seed: st.tuples(st.just(seed[0]), _inputs(st.just(seed[1])))))
@example(("cuckoo", ('[Event "' + "a" * 200_000 + "\n" + _WON).encode()))  # issue 30: 165 bytes per character
@example(("cuckoo", _WON.replace("Ann", "Ann\x1b]0;owned\x07\x1b[2J").encode()))  # issue 30: a terminal's escapes
@example(("cuckoo", ("\ufeff" + _WON).encode()))  # issue 29: a byte-order mark
def test_any_record_file_is_imported_or_refused_cleanly(game_and_data):
    name, data = game_and_data
    with _file(data, "club.txt") as path:
        db = path.parent / "games.sqlite"
        ran = _run(["--game", name, "import", str(path), "--db", str(db)])
        _check(ran, data, path)
        assert db.exists() == (ran.code == 0)  # nothing written from a refused file
        if ran.code == 0:
            assert ran.out.endswith(" there already)\n") or ": -" in ran.out, ran.out


# -- the config ---------------------------------------------------------------------------------

_CONFIGS = [
    default_config_text().encode(),
    b'[game]\nname = "battle"\n',
    b'[storage]\ndatabase = "games.sqlite"\n\n[display]\ntype = "ssd1306"\n',
    b'[game]\nlenient = true\nlineup = "advanced-1"\n\n[players]\nlevel = 3\n',
]


@FUZZ
@given(_inputs(st.sampled_from(_CONFIGS)))
@example(b'[game]\nname = "' + b"b" * 300 + b'"\n')  # once an OSError: too long for a file name
def test_any_config_file_is_read_or_refused_cleanly(data):
    with _file(data, "nest.toml") as path:
        ran = _run(["wiring", "--config", str(path)])
        _check(ran, data, path)
        assert sorted(each.name for each in path.parent.iterdir()) == ["nest.toml"]  # nothing written


# -- board files, both games ------------------------------------------------------------------

_BOARDS = [
    ("cuckoo", GameAssets.of("cuckoo").board_text("hexhex-5").encode()),
    ("battle", GameAssets.of("battle").board_text("classic").encode()),
]


@FUZZ
@given(st.sampled_from(_BOARDS).flatmap(lambda seed: st.tuples(st.just(seed[0]), _inputs(st.just(seed[1])))))
def test_any_board_file_is_read_or_refused_cleanly(game_and_data):
    name, data = game_and_data
    with _file(data, "board.toml") as path:
        ran = _run(["--game", name, "--board", str(path), "show"])
        _check(ran, data, path)
        assert sorted(each.name for each in path.parent.iterdir()) == ["board.toml"]  # nothing written


# -- sensor logs: nestref referee --------------------------------------------------------------

_LOGS = [
    ("cuckoo", (CORPUS / "p17-sloppy-advanced-2-nopushflicker.log").read_bytes()),
    ("cuckoo", b"# lineup: standard\n100 c3-\n400 c4+\n900 c7-\n1200 c6+\n"),
    ("battle", play_battle_game(random.Random(1), 4).to_text().encode()),
]


@FUZZ
@given(st.sampled_from(_LOGS).flatmap(lambda seed: st.tuples(st.just(seed[0]), _inputs(st.just(seed[1])))))
def test_any_sensor_log_is_refereed_or_refused_cleanly(game_and_data):
    name, data = game_and_data
    with _file(data, "nest.log") as path:
        db = path.parent / "games.sqlite"
        ran = _run(["--game", name, "referee", "--events", str(path), "--db", str(db)])
        _check(ran, data, path)
        assert db.exists() == (ran.code == 0)  # nothing written from a refused log
