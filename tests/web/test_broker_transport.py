"""The broker transport (games/jobs/broker.py): kombu's Redis transport with one Redis client
object per channel instead of one per command, carrying messages as kombu's own does."""

import pytest
import redis
from kombu import Connection, Exchange, Queue

from games.jobs.broker import Transport
from tests.services import require_redis
from tests.web.test_settings import settings_of


def test_the_production_profile_sends_jobs_through_this_transport_and_the_embedded_does_not():
    assert settings_of("s.CELERY_BROKER_TRANSPORT", REDIS_URL="redis://broker:6379/0") == (
        "games.jobs.broker:Transport"
    )
    shown = settings_of("getattr(s, 'CELERY_BROKER_TRANSPORT', None), s.CELERY_BROKER_URL")
    assert shown == "None memory://"


def test_celery_connects_with_this_transport_to_the_url_it_is_given():
    connection = "__import__('condottiere_site.celery').celery.app.connection_for_write()"
    shown = settings_of(
        f"(lambda c: (type(c.transport).__module__, c.hostname, c.port, c.virtual_host))"
        f"({connection})",
        REDIS_URL="redis://127.0.0.1:6399/3",
    )
    assert shown == "('games.jobs.broker', '127.0.0.1', 6399, '3')"


@pytest.fixture
def kombu_connection():
    url = require_redis()
    with Connection(url, transport=Transport) as connection:
        yield connection


@pytest.mark.production
def test_messages_go_and_come_with_one_client_object_per_channel(kombu_connection, monkeypatch):
    made = []
    original = redis.Redis.__init__

    def counted(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    queue = Queue("broker-transport-test", Exchange("broker-transport-test"), "go")
    channel = kombu_connection.default_channel
    bound = queue(channel)
    bound.declare()
    bound.purge()
    producer = kombu_connection.Producer(channel)
    for number in range(20):
        producer.publish({"n": number}, exchange=queue.exchange, routing_key="go")
    received = []
    for _ in range(20):
        message = bound.get(no_ack=False)
        assert message is not None
        received.append(message.payload["n"])
        message.ack()
    assert received == list(range(20))
    # 20 publishes, 20 reads and 20 acknowledgements: kombu's own channel makes a client object
    # for each; this one made one synchronous client (and none more as the traffic went on).
    assert len(made) <= 2, len(made)
    bound.delete()


@pytest.mark.production
def test_a_new_pool_gets_a_new_client(kombu_connection):
    channel = kombu_connection.default_channel
    first = channel._create_client()
    assert channel._create_client() is first
    channel._disconnect_pools()  # as after a fork
    second = channel._create_client()
    assert second is not first
    assert second.connection_pool is channel.pool
    assert second.ping()
