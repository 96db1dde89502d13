"""A group message published from synchronous code straight onto channels-redis's
publish/subscribe layer, in the calling thread.

The layer's own `group_send` is a coroutine: from a worker or a socket's database thread it must
be handed to an event loop on another thread and waited for, two thread hops around one
PUBLISH. On this kind of machine a hop costs more than the PUBLISH itself, and every move sends
one hint. Here the layer still decides everything that makes the message its own: the channel a
group is published on (`_get_group_channel_name`), the shard that carries it
(`_get_shard`, its consistent hash over `hosts`) and the bytes (`serialize`, msgpack or
encrypted); this module only sends them with redis-py's synchronous client, one connection pool
per shard, shared by the process's threads.
"""

import threading

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from redis.backoff import NoBackoff
from redis.retry import Retry

# Seconds a PUBLISH may take, or its connection, before the hint is given up: the caller is a
# move's thread, and a lost hint is not a lost move (the pages ask again after 4 s of silence).
PUBLISH_TIMEOUT = 2
CONNECT_TIMEOUT = 1
# One retry: the first PUBLISH after a Redis restart meets the pooled connection's dead socket,
# the retry reconnects. No more: the move's thread must not wait through an outage.
RETRY = Retry(NoBackoff(), 1)


class GroupPublisher:
    """Publishes group messages for one RedisPubSubChannelLayer, as its group_send would."""

    def __init__(self, layer: RedisPubSubChannelLayer):
        self.layer = layer
        # A loop layer built only for its naming and sharding: it opens no connection until
        # it is awaited, and it is never awaited here.
        self.naming = RedisPubSubLoopLayer(*layer._args, **layer._kwargs, channel_layer=layer)
        self.clients = [client_for(shard.host) for shard in self.naming._shards]

    def group_send(self, group: str, message: dict) -> None:
        channel = self.naming._get_group_channel_name(group)
        shard = self.naming._shards.index(self.naming._get_shard(channel))
        self.clients[shard].publish(channel, self.layer.serialize(message))


def client_for(host: dict) -> redis.Redis:
    """A synchronous client to one of the layer's `hosts` entries (as channels-redis decodes
    them: an "address" URL with options, or connection keywords)."""
    options = dict(host)
    # The layer's retry and timeouts are for its asyncio client and its blocking reads.
    options.update(retry=RETRY, socket_timeout=PUBLISH_TIMEOUT)
    options.update(socket_connect_timeout=CONNECT_TIMEOUT)
    address = options.pop("address", None)
    if address is not None:
        return redis.Redis.from_url(address, **options)
    return redis.Redis(**options)


_publishers: dict[int, GroupPublisher] = {}
_publishers_lock = threading.Lock()


def publisher_for(layer: RedisPubSubChannelLayer) -> GroupPublisher:
    """The process's publisher for `layer` (one per layer object: tests may swap the layer)."""
    with _publishers_lock:
        found = _publishers.get(id(layer))
        if found is None or found.layer is not layer:
            found = _publishers[id(layer)] = GroupPublisher(layer)
        return found
