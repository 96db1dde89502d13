"""Per-decision random generators: a bot is a pure function of (view, seed, budget).

Each decision gets its own `random.Random` seeded from the bot's seed and a digest of the view's
canonical JSON, so the same view and seed always give the same choice, whatever the hidden cards
are and whatever the bot decided before. Global `random` is never touched.
"""

import hashlib
import json
import random


def view_digest(view: dict) -> int:
    """A stable 64-bit digest of everything the view shows."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def decision_rng(seed: int | None, view: dict) -> random.Random:
    """The generator for one decision, derived from the bot's seed and the view."""
    return random.Random(((seed or 0) << 64) ^ view_digest(view))
