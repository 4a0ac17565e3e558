"""``python -m firmware_host.cli``: the same as ``nestref``."""

import sys

from firmware_host.cli import main

sys.exit(main())
