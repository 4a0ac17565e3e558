"""The record of every game, apart from the pure referee: the SQLite store and its layout
(:mod:`store`, :mod:`record_layout`), the history read back from it (:mod:`history`), and
the service that runs a referee and writes each of its signals to the store
(:mod:`service`). The referee below knows none of this; the daemon above uses it."""
