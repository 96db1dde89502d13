"""Shared fixtures for the engine rule tests (plain Python: no database needed)."""

import random

import pytest


@pytest.fixture
def rng():
    """A fixed random source, so that a failing test fails the same way every time."""
    return random.Random(20060101)
