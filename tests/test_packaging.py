"""What `pip install` puts on a fresh machine: the wheel must carry every data file the
code reads, not only what an editable install happens to find in the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_carries_the_data_files(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--quiet", "--wheel-dir", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("nestref-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "firmware_host/daemon/default_config.toml",
        "firmware_host/games/cuckoo/boards/hexhex-5.toml",
        "firmware_host/py.typed",
        "hardware/sensors.py",
        "sim/mock_devices.py",
        "firmware_host/web/page/index.html",
        "firmware_host/web/page/app.js",
        "firmware_host/web/page/board.js",
        "firmware_host/games/battle/default_config.toml",
        "firmware_host/games/battle/builds/classic.toml",
        "firmware_host/games/battle/boards/classic.toml",
        "firmware_host/web/page/style.css",
    ):
        assert needed in names, needed
