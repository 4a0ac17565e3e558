"""The daemon's parts: each one feature of the nest, hosted by the loop
(:mod:`firmware_host.daemon.loop`), listed by the composition root
(:mod:`firmware_host.daemon.root`). What a part is: :mod:`.part`."""
