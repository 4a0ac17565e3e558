"""The README, the docs and CI say what the code does."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from firmware_host.cli import main
from tests.test_perft import PERFT

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def marked_command(marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\n```sh\n(.+)\n```\n", README)
    assert match, marker
    return match.group(1)


def test_the_readme_has_exactly_two_commands_a_main_one_and_a_test_one():
    assert README.count("<!-- main-command -->") == 1
    assert README.count("<!-- test-command -->") == 1
    assert marked_command("main-command").endswith(".venv/bin/nestref sim")
    test_command = marked_command("test-command")
    steps = (
        "pip install -q -e '.[test]'",
        "sh .ci/chromium",
        "sh .ci/mosquitto",
        "sh .ci/stockfish",
        "ruff check",
        "ruff format --check",
        "mypy",
        "sh .ci/tsc",
        "pytest",
    )
    for step in steps:
        assert step in test_command


def test_ci_runs_the_readmes_test_command_word_for_word(tmp_path):
    # Run .ci/run's extraction on a copy whose command only echoes itself.
    (tmp_path / ".ci").mkdir()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (tmp_path / ".ci" / "run").write_text(ci.replace('exec sh -c "set -e; $command"', 'printf "%s" "$command"'))
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    done = subprocess.run(["sh", str(tmp_path / ".ci" / "run")], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == marked_command("test-command")


def test_ci_fails_without_a_test_command(tmp_path):
    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "run").write_text((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    (tmp_path / "README.md").write_text("# no commands here\n")
    done = subprocess.run(["sh", str(tmp_path / ".ci" / "run")], capture_output=True, text=True, check=False)
    assert done.returncode == 2


@pytest.mark.parametrize(
    ("picture", "argv"),
    [
        ("docs/hexhex-5.svg", []),
        ("docs/lineup-standard.svg", ["--lineup", "standard"]),
        ("docs/lineup-advanced-1.svg", ["--lineup", "advanced-1"]),
        ("docs/lineup-advanced-2.svg", ["--lineup", "advanced-2"]),
    ],
)
def test_the_pictures_in_the_docs_are_what_nestref_board_draws(tmp_path, capsys, picture, argv):
    assert main(["board", *argv, "--svg", str(tmp_path / "now.svg")]) == 0
    assert (tmp_path / "now.svg").read_text() == (ROOT / picture).read_text(), f"regenerate {picture}"
    assert f"({picture})" in README


def test_the_readme_quotes_the_pinned_perft_counts():
    for lineup, counts in PERFT.items():
        assert ", ".join(map(str, counts[1:])) in README.replace("\n", " "), lineup


def test_the_wiring_guide_is_what_the_code_writes_from_the_default_config():
    from firmware_host.daemon.config import load_config
    from firmware_host.schematic import PHYSICAL
    from firmware_host.wiring import render_wiring

    config = load_config(None)
    guide = (ROOT / "wiring.md").read_text(encoding="utf-8")
    assert guide == render_wiring(config), "run: nestref wiring --output wiring.md"
    for gpio, use in config.pins().items():  # every pin the code uses is in the guide, with its use
        left, right = f"| {use} | GPIO{gpio} | {PHYSICAL[gpio]} |", f"| {PHYSICAL[gpio]} | GPIO{gpio} | {use} |"
        assert left in guide or right in guide, gpio
    for cell in config.matrix:
        assert cell in guide


def test_a_guide_for_a_pico_on_the_uart_without_oled_or_cell_lights(tmp_path):
    from firmware_host.daemon.config import load_config
    from firmware_host.wiring import render_wiring

    path = tmp_path / "config.toml"
    path.write_text(
        '[sensors]\nbackend = "serial"\n[sensors.serial]\nport = "/dev/serial0"\n'
        '[status_lights]\nerror = 4\ncapture = 5\n[display]\ndriver = "none"\n[cell_lights]\ndriver = "none"\n',
        encoding="utf-8",
    )
    guide = render_wiring(load_config(path))
    assert "enable_uart=1" in guide and "enable_uart=0" not in guide
    assert "dtparam=i2c_arm=on" not in guide and "dtparam=spi=on" not in guide
    assert "**GPIO15 (RXD, pin 10)**" in guide
    assert 'None in this build (`[display] driver = "none"`)' in guide
    assert 'None in this build (`[cell_lights] driver = "none"`)' in guide
    assert "| 10 | GPIO15 | sensors: UART RXD (from the Pico's TX) |" in guide  # the pin map


def test_the_systemd_unit_starts_the_command_the_cli_has():
    unit = (ROOT / "docs" / "nestref.service").read_text(encoding="utf-8")
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    argv = exec_start.removeprefix("ExecStart=").split()
    assert argv[0].endswith("/bin/nestref")
    from firmware_host.cli import build_parser

    args = build_parser().parse_args(argv[1:])
    assert (args.command, args.config, args.mock) == ("run", "/etc/nestref/config.toml", False)
    assert args.web == ("0.0.0.0", 8080)  # the players' own screens: the battle game is set up on them
    assert "RestartPreventExitStatus=2" in unit
    assert "/etc/nestref/config.toml" in README and "nestref.service" in README


def test_the_daemon_docs_show_every_reference_screen():
    docs = (ROOT / "docs" / "daemon.md").read_text(encoding="utf-8")
    for screen in (ROOT / "docs" / "screens").glob("*.png"):
        assert f"(screens/{screen.name})" in docs


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_every_link_of_the_docs_points_into_the_repository(page):
    path = ROOT / page
    text = path.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{page} points outside the repository: {target}"
        assert resolved.exists(), f"{page} links to {target}, which is not there"
    assert "../shared" not in text, f"{page} points to ../shared, which is not in the repository"


def test_the_command_lines_help_points_to_docs_that_exist():
    from firmware_host.cli import build_parser

    texts = [build_parser().format_help()]
    texts += [action.format_help() for action in build_parser()._subparsers._group_actions[0].choices.values()]  # type: ignore[union-attr]
    for name in sorted({match for text in texts for match in re.findall(r"docs/[\w.-]+\.md", text)}):
        assert (ROOT / name).exists(), name


def test_the_readme_leads_with_the_story_and_keeps_the_figures_in_performance_md():
    headings = re.findall(r"^## (.+)$", README, re.MULTILINE)
    assert headings[:3] == ["Play in the simulator", "Build a nest", "On the Raspberry Pi"]
    command = README.index("<!-- main-command -->")
    assert "python3-venv" in README[:command]  # Debian's venv, before the command that needs it
    after = README[command : command + 700]
    assert "--port" in after and "--no-browser" in after
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8").replace("\n", " ")
    for figure in ("1,548,294 nodes/s", "0.38 ms p99", "0.311 / 0.425 s", "100 of 100 games"):
        assert figure in performance, figure
        assert figure not in README.replace("\n", " "), figure
