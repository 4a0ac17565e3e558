"""The sample sensor logs of ``../shared/corpus/``: 72 whole games as a latching scanner
logs them, as the Pi's 200 Hz scan reads them, and with pushed-off captures that leave
no empty reading, checked by the corpus's own checker against the moves played."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
NESTREF = Path(sys.executable).parent / "nestref"


def test_the_referee_reads_every_sample_log():
    checker = CORPUS / "check.py"
    assert checker.is_file(), f"the sample corpus is missing: {checker}"
    done = subprocess.run(
        [sys.executable, str(checker), "--cmd", str(NESTREF), "--show", "72"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, "\n".join(lines[-20:]) + done.stderr[-2000:]
    assert lines[-1].endswith(" 0 failed") and int(lines[-1].split()[1]) >= 72, lines[-1]
