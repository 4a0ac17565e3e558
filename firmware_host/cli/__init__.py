"""The ``nestref`` command line: :mod:`.parser` its grammar, :mod:`.game` the commands
about the game, :mod:`.replay` ``nestref referee``, :mod:`.nest` the daemon, the
simulator and the builder's commands.

A bad command line, board file, position or move prints one line saying what is wrong
and exits with code 2; hardware or a disk that is not there now, code 1.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from firmware_host.cli.parser import build_parser
from firmware_host.errors import HardwareError, NestrefError
from firmware_host.files import printable
from firmware_host.recorder.store import StorageUnavailableError

__all__ = ["build_parser", "main"]

EXIT_UNAVAILABLE = 1  # the hardware or the disk is not there now: trying again may work
EXIT_BAD_INPUT = 2  # a bad command line, file or config: trying again will not help


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code: 0; 1 when the hardware or the disk
    failed (systemd tries again); 2 for bad input."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the usage and the error
        return int(exit_.code or 0)
    try:
        args.run(args, sys.stdout)
        sys.stdout.flush()
    except (HardwareError, StorageUnavailableError) as error:
        print(f"nestref: {printable(str(error))}", file=sys.stderr)  # it may quote a file
        return EXIT_UNAVAILABLE
    except NestrefError as error:
        print(f"nestref: {printable(str(error))}", file=sys.stderr)  # it may quote a file
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader stopped early, as `nestref moves | head` does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
