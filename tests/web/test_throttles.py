"""The one throttle primitive (games/limits/throttles.py), in both of its stores: Redis (production,
shared by every process) and the embedded profile's memory. A slot is taken before the work, in
one step: of N takers at the same instant exactly the limit get one; a window slides (at most the
limit in any span of its length, however the takes are timed); several counters are taken all or
none; a slot given back is free again."""

import pytest

from games.limits import throttles
from games.limits.throttles import Count, take
from tests.services import require_redis
from tests.web.together import send_together

LIMIT, SECONDS = 6, 60.0


@pytest.fixture(params=["memory", "redis"])
def store(request, settings):
    """Which store `take` uses: this process's memory, or the Redis of REDIS_URL."""
    if request.param == "redis":
        require_redis()
    else:
        settings.REDIS_URL = ""
    return request.param


@pytest.fixture
def clock(monkeypatch):
    """The throttles' clock, moved by the test."""
    now = [1_000_000.0]
    monkeypatch.setattr(throttles.time, "time", lambda: now[0])
    return now


def count(value: str = "someone", limit: int = LIMIT, group: str = "test") -> Count:
    return Count(group, value, limit, SECONDS)


def test_takers_at_the_same_instant_get_exactly_the_limit(store):
    taken = send_together(40, lambda _: take(count()))

    assert [slot.refusal is None for slot in taken].count(True) == LIMIT


def test_a_window_slides_across_any_boundary(store, clock):
    # One slot every 9 s: the 7th falls 54 s after the first, inside its minute.
    for _ in range(LIMIT):
        assert take(count()).refusal is None
        clock[0] += 9
    refusal = take(count()).refusal
    assert refusal is not None
    assert refusal.seconds_left == 6  # the first slot lapses 60 s after it was taken
    clock[0] += 6
    assert take(count()).refusal is None  # one slot lapsed: one more
    assert take(count()).refusal is not None


def test_a_refused_take_holds_no_slot(store, clock):
    for _ in range(LIMIT):
        take(count())
    for _ in range(100):
        assert take(count()).refusal is not None
    clock[0] += SECONDS
    assert all(take(count()).refusal is None for _ in range(LIMIT))


def test_several_counters_are_taken_all_or_none(store):
    full, roomy = count("full", limit=1), count("roomy", limit=2)
    assert take(full).refusal is None

    assert take(roomy, full).refusal is not None
    # The refused take left no slot in the counter that had room: both of its slots are free.
    assert take(roomy).refusal is None
    assert take(roomy).refusal is None
    assert take(roomy).refusal is not None


def test_a_slot_given_back_is_free_again(store):
    slots = [take(count(limit=2)) for _ in range(2)]
    assert take(count(limit=2)).refusal is not None

    slots[0].give_back()
    slots[0].give_back()  # twice is once

    assert take(count(limit=2)).refusal is None
    assert take(count(limit=2)).refusal is not None


def test_counters_of_other_values_and_groups_are_apart(store):
    for _ in range(LIMIT):
        take(count())
    assert take(count()).refusal is not None
    assert take(count("someone else")).refusal is None
    assert take(count(group="other")).refusal is None


def test_no_counter_is_no_limit(store):
    assert all(take(None).refusal is None for _ in range(3 * LIMIT))
    # A limit of 0 (the settings' "no limit") is no counter either, beside one that is.
    assert all(take(count(limit=0)).refusal is None for _ in range(3 * LIMIT))
    assert all(take(count(limit=0), count()).refusal is None for _ in range(LIMIT))
    assert take(count(limit=0), count()).refusal is not None


def test_the_memory_store_forgets_counters_whose_slots_all_lapsed(clock):
    """Redis expires its keys; the embedded profile's store drops lapsed counters itself, so a
    flood of made-up usernames leaves nothing behind once its window passed."""
    memory = throttles.MemorySlots()
    every = memory.SWEEP_EVERY
    for index in range(every):
        memory.take([count(f"made-up {index}")], f"slot {index}", clock[0])
    clock[0] += SECONDS + 1
    for index in range(every):
        memory.take([count(f"later {index}")], f"later slot {index}", clock[0])

    assert len(memory.slots) <= every
