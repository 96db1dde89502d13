"""At most one pending bot-turn job per game: the newest announced version supersedes the rest.

Every announcement of a bot's turn records the game's newest announced version; a message is
sent only when none of the game's is waiting in the queue. The job, when it starts, takes the
game's mark off (so the next announcement sends a message again) and reads the newest version:
if a newer one was announced meanwhile, it plays that one, never thinks about the old one, and
no second message was queued for it. So a burst of announcements for one game (a sweep and a
socket waking the same stalled game, a seat handed to its stand-in) costs one message, never a
queue of them that other games' bots would wait behind.

With Redis (the production profile) the marks are shared by every process: one Lua script per
announcement, atomic. Without it (the embedded profile) there is one process, and its memory
will do. A message lost with the broker leaves its mark until MARK_SECONDS; the sweep
(`games/jobs/sweep.py`), which finds the lost turn, sends its message regardless (`force`).
"""

import threading
import time
from dataclasses import dataclass, field

import redis
from django.conf import settings

# A mark outlives a message waiting for a worker in any queue short of an outage, then lapses on
# its own: a game's next announcement then sends a message again (at worst one more per game
# every MARK_SECONDS while a queue stays that long).
MARK_SECONDS = 120

# KEYS: the newest announced version, the "a message waits" mark. ARGV: version, seconds, force.
# Returns 1 if the caller must send a message, 0 if the waiting one will play this version. With
# no message waiting the record starts afresh: a version left from before counts for nothing.
ANNOUNCE_SCRIPT = """
if ARGV[3] == '1' or redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
  return 1
end
local newest = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) > newest then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
end
return 0
"""

# KEYS: the newest announced version, the mark. Takes both off; returns the newest announced
# while a message waited, or -1 if none waited (a duplicate, or marks that lapsed).
TAKE_SCRIPT = """
local waited = redis.call('DEL', KEYS[2])
local newest = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1])
if waited == 1 and newest then
  return tonumber(newest)
end
return -1
"""


def key_prefix() -> str:
    """Game ids are per database: sites (or test databases) sharing a Redis keep apart."""
    return f"condottiere:bot-turn:{settings.DATABASES['default']['NAME']}:"


def keys(game_id: int) -> list[str]:
    prefix = key_prefix()
    return [f"{prefix}{game_id}:newest", f"{prefix}{game_id}:queued"]


class RedisMarks:
    """The production marks, shared by every process through Redis."""

    def __init__(self, url: str):
        self.client = redis.Redis.from_url(url)
        self.announce_script = self.client.register_script(ANNOUNCE_SCRIPT)
        self.take_script = self.client.register_script(TAKE_SCRIPT)

    def announce(self, game_id: int, version: int, force: bool) -> bool:
        args = [version, MARK_SECONDS, "1" if force else "0"]
        return bool(self.announce_script(keys=keys(game_id), args=args))

    def take(self, game_id: int) -> int | None:
        newest = int(self.take_script(keys=keys(game_id)))
        return None if newest < 0 else newest

    def forget_all(self) -> None:
        # Run before every test: the keys go in one DELETE, not one round trip each.
        found = list(self.client.scan_iter(match=key_prefix() + "*", count=500))
        if found:
            self.client.delete(*found)


@dataclass
class MemoryMarks:
    """The embedded profile's marks, in its one process: {game: (newest version, queued at)}."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    waiting: dict[int, tuple[int, float]] = field(default_factory=dict)

    def announce(self, game_id: int, version: int, force: bool) -> bool:
        with self.lock:
            now = time.monotonic()
            newest, since = self.waiting.get(game_id, (-1, now - MARK_SECONDS))
            if force or now - since >= MARK_SECONDS:
                self.waiting[game_id] = (version, now)
                return True
            self.waiting[game_id] = (max(newest, version), since)
            return False

    def take(self, game_id: int) -> int | None:
        with self.lock:
            newest, since = self.waiting.pop(game_id, (-1, 0.0))
            return newest if newest >= 0 and time.monotonic() - since < MARK_SECONDS else None

    def forget_all(self) -> None:
        with self.lock:
            self.waiting.clear()


_marks: dict[str, RedisMarks | MemoryMarks] = {}
_marks_lock = threading.Lock()


def marks() -> RedisMarks | MemoryMarks:
    """The marks of the profile in force (one client per Redis URL, made on first use)."""
    url = settings.REDIS_URL or ""
    with _marks_lock:
        if url not in _marks:
            _marks[url] = RedisMarks(url) if url else MemoryMarks()
        return _marks[url]


def announce(game_id: int, version: int, *, force: bool = False) -> bool:
    """Record `version` as announced for the game's bot; True if the caller must send the job's
    message (none of this game's waits), False if the waiting one will play it. `force`: send
    regardless (the sweep, for a turn whose message was lost)."""
    return marks().announce(game_id, version, force)


def take(game_id: int) -> int | None:
    """A bot-turn job starts: the game has no message waiting any more; the newest version
    announced while one waited (None if none did: this job is a duplicate, or the marks
    lapsed)."""
    return marks().take(game_id)


def forget_all() -> None:
    """Drop every mark of this database's games (the tests, before a database whose game ids
    start again at 1)."""
    marks().forget_all()
