"""A finished game's replay is computed once: 20 requests for replay.json sent together re-simulate
the game once (the others wait for its frames in the cache: Redis, shared by every process), and
later requests not at all. What may change after the end, the chat, is still read per request."""

import threading
import zlib

import pytest
from django.test import Client
from django.urls import reverse

from games.chat.models import ChatMessage, Room
from games.history import replay
from games.models import Game
from tests.services import require_postgresql, require_redis
from tests.web.test_replay import play_out
from tests.web.together import send_together

pytestmark = pytest.mark.django_db(transaction=True)

TOGETHER = 20


@pytest.fixture
def simulations(monkeypatch):
    """The games re-simulated for their replay, counted: the real simulation runs, and each run
    appends the game's id here."""
    counted, lock, simulate = [], threading.Lock(), replay.replay_states

    def counting(game, actions=None):
        with lock:
            counted.append(game.pk)
        return simulate(game, actions)

    monkeypatch.setattr(replay, "replay_states", counting)
    return counted


@pytest.fixture
def finished(make_user, make_table, announced):
    people = {index: make_user() for index in range(4)}
    return play_out(make_table(4, people=people, seed=31), 31)


def get_together(url: str, count: int, headers: dict | None = None) -> list:
    """`count` anonymous GETs of `url` sent at the same instant, each on its own connection."""
    return send_together(count, lambda _position: Client().get(url, headers=headers or {}))


def test_twenty_requests_sent_together_simulate_the_game_once(finished, simulations):
    require_postgresql()
    require_redis()
    assert finished.status == Game.Status.FINISHED
    url = reverse("replay_frames", args=[finished.pk])

    answers = get_together(url, TOGETHER)

    assert [answer.status_code for answer in answers] == [200] * TOGETHER
    assert simulations == [finished.pk]
    bodies = {answer.content for answer in answers}
    assert len(bodies) == 1
    data = answers[0].json()
    assert len(data["steps"]) == finished.version + 1
    assert set(data) == {"game", "steps", "log", "chat"}
    assert Client().get(url).content in bodies and simulations == [finished.pk]


def test_each_language_is_computed_once_with_its_own_labels(finished, simulations):
    require_redis()
    url = reverse("replay_frames", args=[finished.pk])
    english = get_together(url, 4)
    french = get_together(url, 4, headers={"Accept-Language": "fr"})

    assert simulations == [finished.pk, finished.pk]
    assert english[0].json()["steps"][0]["label"] == "The cards are dealt"
    assert french[0].json()["steps"][0]["label"] != "The cards are dealt"
    assert len({answer.content for answer in french}) == 1


def test_the_chat_is_read_per_request_beside_the_kept_frames(finished, simulations, client):
    require_redis()
    player = finished.seats.order_by("index").first().user
    said = ChatMessage.objects.create(
        game=finished, room=Room.PLAYERS, user=player, seat=0, text="well played"
    )
    url = reverse("replay_frames", args=[finished.pk])

    assert Client().get(url).json()["chat"] == []
    client.force_login(player)
    assert [entry["text"] for entry in client.get(url).json()["chat"]] == ["well played"]
    ChatMessage.objects.filter(pk=said.pk).update(deleted=True)  # staff took it down
    assert client.get(url).json()["chat"] == []
    assert simulations == [finished.pk]


def test_a_replay_is_served_with_redis_down(finished, simulations, settings):
    """The cache only saves work: with its Redis unreachable, replay.json is computed here."""
    require_redis()
    dead = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
    }
    settings.CACHES = {"default": dead}
    answer = Client().get(reverse("replay_frames", args=[finished.pk]))
    assert answer.status_code == 200
    assert len(answer.json()["steps"]) == finished.version + 1
    assert simulations == [finished.pk]


def test_frames_stored_while_the_lock_is_being_taken_are_not_computed_again(
    finished, simulations, monkeypatch
):
    """The race of two requests: this one finds no frames, then the request that held the lock
    stores them and lets the lock go, then this one takes the lock. It must serve the stored
    frames, not simulate the game a second time."""
    require_redis()
    from django.core.cache import cache

    stored = replay.kept_frames(finished)  # the first request: computes and stores
    assert simulations == [finished.pk]
    key = replay.frames_key(finished)
    cache.delete(key)
    taking_the_lock = cache.add

    def add_after_the_other_request_stored(name, *args, **kwargs):
        cache.set(key, zlib.compress(stored.encode(), 1), 60)  # it finished just now
        return taking_the_lock(name, *args, **kwargs)

    monkeypatch.setattr(cache, "add", add_after_the_other_request_stored)
    assert replay.kept_frames(finished) == stored
    assert simulations == [finished.pk]
