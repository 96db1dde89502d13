"""A bot's next turn played by the job that made it, when nobody is to wait for it.

When a bot's move leaves one bot of the same game to decide next (three bots in a row at a
four-player table, or a table of bots) and no pause is to be shown before a bot's move
(`BOT_MOVE_DELAY` below `SHORTEST_PAUSE`), the job that played the move plays the next turn
itself instead of sending a message for it through the broker: the broker's round trip, the
worker's taking and acknowledging of the message and the waiting-turn marks cost more than the
move itself. Each move is still committed before the next is chosen; its version notice is
held and told with the next move's, in one notice that carries each move's change (the sockets'
processes build every version from it and send the newest once, as they would for notices that
arrived together), or at the chain's end if no move follows. A chain's moves reach the sockets
a few milliseconds later, and each socket process hears and answers one notice instead of one
per move. Held notices lost with a worker killed mid-chain are not missed: the kept turn is then
a bot's turn nobody plays, which the sweep announces again, and its move's notice tells the
newest version.

A chain is bounded (`LONGEST_CHAIN` moves, `LONGEST_CHAIN_SECONDS`): the last turn of a chain is
announced as usual, so a table of bots never holds a worker process from the other games' turns
for long. Only a turn whose level and snapshot the move's transaction knew is kept (one bot to
act, nothing else awaited); several bots deciding at once, an answer to an offer, a stand-in's
turn after a seat changed hands go through the broker as before.

The chain lives in a context variable set by the bot job (`chaining`) and read by the services'
announcement after the commit, on the same thread (`keep`): outside a bot job nothing changes.
"""

import contextlib
import time
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.conf import settings

# Below this many seconds of pause before a bot's move, the move is played without a pause.
SHORTEST_PAUSE = 0.02
LONGEST_CHAIN = 6
LONGEST_CHAIN_SECONDS = 0.25


@dataclass
class Chain:
    """The turns one job still may play, and the one it was handed to play next."""

    moves_left: int
    ends_at: float
    next_turn: tuple | None = field(default=None)
    # The version notices of the moves whose next turn was kept, not told yet: the chain's next
    # move tells them with its own, in one notice (or the chain's end does, if none comes).
    held: list[tuple[int, int, dict | None]] = field(default_factory=list)

    def may_keep(self) -> bool:
        return self.next_turn is None and self.moves_left > 0 and time.monotonic() < self.ends_at


_chain: ContextVar[Chain | None] = ContextVar("bot_chain", default=None)


def no_pause() -> bool:
    return settings.BOT_MOVE_DELAY < SHORTEST_PAUSE


@contextlib.contextmanager
def chaining():
    """Inside a bot job: the turns its moves make for a lone bot may be kept for it."""
    chain = Chain(LONGEST_CHAIN, time.monotonic() + LONGEST_CHAIN_SECONDS)
    token = _chain.set(chain)
    try:
        yield chain
    finally:
        _chain.reset(token)


def keep(turn: tuple) -> bool:
    """After a commit inside a chaining job: keep `turn` (the bot turn job's arguments) for the
    job to play next, instead of announcing it; False when it must be announced (no chain, a
    pause to show, the chain full or over its time)."""
    chain = _chain.get()
    if chain is None or not no_pause() or not chain.may_keep():
        return False
    chain.next_turn = turn
    chain.moves_left -= 1
    return True


def hold_notice(game_id: int, version: int, change: dict | None) -> None:
    """Keep a move's version notice for the chain's next move to tell (after `keep`)."""
    _chain.get().held.append((game_id, version, change))


def take_held(chain: Chain | None = None) -> list[tuple[int, int, dict | None]]:
    """The notices held for the running job's chain (or `chain`), in order; no longer held."""
    chain = chain or _chain.get()
    if chain is None:
        return []
    held, chain.held = chain.held, []
    return held


def take_next(chain: Chain) -> tuple | None:
    """The turn kept for the job, if any (then no longer kept)."""
    turn, chain.next_turn = chain.next_turn, None
    return turn
