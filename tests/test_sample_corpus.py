"""The sample sensor logs of the project's corpus (72 whole games as a latching scanner
logs them, as the Pi's 200 Hz scan reads them, and with pushed-off captures that leave no
empty reading), copied into ``tests/fixtures/corpus/`` with the moves played, each
replayed through ``nestref referee`` and judged as the corpus's own checker judges it:
every move read in order, then the position and the result; or, where the ``.expect``
says only the first N moves can be read from occupancy, at least those and then a
question. A move that was not played always fails."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from firmware_host.cli.parser import build_parser

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
LOGS = sorted(CORPUS.glob("*.log"))
MOVE = re.compile(r"^move\s+(\S+)\s*$")


def expected(log: Path) -> tuple[int | None, list[str], list[str]]:
    """From the log's ``.expect``: how many moves occupancy can tell (None: all), the
    moves played (passes left out) and the last two lines."""
    decidable, lines = None, []
    for line in log.with_suffix(".expect").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("# decidable:"):
            decidable = int(line.split(":", 1)[1])
        elif line:
            lines.append(line)
    moves = [line.split()[1] for line in lines[:-2] if line.split()[1] != "pass"]
    return decidable, moves, lines[-2:]


def header_options(log: Path) -> list[str]:
    """``--lineup`` or ``--position`` from the log's header, as the checker passes them."""
    for line in log.read_text(encoding="utf-8").splitlines():
        text, _, comment = line.partition("#")
        if text.strip():
            break
        comment = comment.strip()
        for key in ("lineup", "position"):
            if comment.startswith(key + ":"):
                return [f"--{key}", comment.split(":", 1)[1].strip()]
    return []


def replay(log: Path) -> list[str]:
    """What ``nestref referee --events LOG`` prints, in this process."""
    args = build_parser().parse_args(["referee", "--events", str(log), *header_options(log)])
    out = io.StringIO()
    args.run(args, out)
    return [line.strip() for line in out.getvalue().splitlines() if line.strip()]


def test_the_corpus_is_all_there():
    assert len(LOGS) == 72
    assert all(log.with_suffix(".expect").is_file() for log in LOGS)


@pytest.mark.parametrize("log", LOGS, ids=lambda log: log.stem)
def test_the_referee_reads_the_sample_log(log):
    decidable, want, ending = expected(log)
    lines = replay(log)
    got = [match.group(1) for line in lines if (match := MOVE.match(line)) and match.group(1) != "pass"]
    assert got == want[: len(got)], f"a move that was not played: got {got}, played {want}"
    if got == want:
        assert lines[-2:] == ending
        return
    last = max((i for i, line in enumerate(lines) if MOVE.match(line)), default=-1)
    asked = any(line.startswith("question") for line in lines[last + 1 :])
    assert decidable is not None and len(got) >= decidable and asked, (
        f"stopped after {len(got)} of {len(want)} moves (next: {want[len(got)]})"
        + (f"; {decidable} are decidable" if decidable is not None else "")
        + ("; it asked" if asked else "")
    )
