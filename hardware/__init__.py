"""Drivers for the nest's hardware: reed-switch sensors, the OLED and the LEDs.

They wrap gpiozero, pyserial and luma and make no game decisions. (Coming with the
daemon; see the issues.)
"""
