"""Test settings for the whole suite."""

from hypothesis import settings

# Hypothesis must never fail a test for being slow on a busy machine: no deadline.
settings.register_profile("nestref", deadline=None, max_examples=200)
settings.load_profile("nestref")
