"""The simulator: the very daemon of the nest on the libraries' own test doubles
(gpiozero's MockFactory, luma's dummy device, a serial line on a pty), with a table of
pieces that hands act on from a web page. Imported by nothing but the command line
(``nestref sim``, ``nestref run --mock``) and the tests.
"""
