"""The daemon: the program under the nest. Its loop reads the switches, hands what they
feel to the referee, handles the buttons, and shows what the referee says on the OLED
and the lights; the computer chooses its moves beside it.

- :mod:`.loop`: the :class:`Daemon` and its loop, a snapshot of what it shows and a
  subscription to what it announces, for the web page and the simulator;
- :mod:`.devices`: opening the hardware the config names;
- :mod:`.root`: running it until SIGTERM, with whatever serves beside it;
- :mod:`.snapshot`: what the nest shows at one moment, as one value;
- :mod:`.presenter` (the scene the outputs show), :mod:`.screens` and :mod:`.lights`
  (what the OLED and the lights show of it, as tables);
- :mod:`.config`, :mod:`.outputs`, :mod:`.buttons`, :mod:`.computer`,
  :mod:`.diagnostics`, :mod:`.sensor_logs`: the parts it is made of.

The names below are imported when first asked for, so that importing one part (the
config, for the command line; the computer, in the computer's own process) does not
load the drivers and the referee with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware_host.daemon.devices import Devices, open_devices, open_switches
    from firmware_host.daemon.root import Daemon
    from firmware_host.daemon.serving import Service, serve
    from firmware_host.daemon.snapshot import Snapshot

__all__ = ["Daemon", "Devices", "Service", "Snapshot", "open_devices", "open_switches", "serve"]

_HOMES = {
    "Daemon": "root",
    "Devices": "devices",
    "open_devices": "devices",
    "open_switches": "devices",
    "Service": "serving",
    "serve": "serving",
    "Snapshot": "snapshot",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
