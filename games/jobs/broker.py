"""kombu's Redis transport with one synchronous Redis client per channel.

kombu's Redis channel makes a new `redis.Redis` object for every synchronous command it sends
(`Channel.conn_or_acquire` calls `_create_client` each time): for each bot turn's message sent,
and in the worker for each acknowledgement. The connections come from the channel's pool either
way, but the client object itself is costly to make (redis-py builds its table of response
callbacks anew in each one): in `bench_moves`, about a fifth of sending a job. A client object
holds no connection of its own and is safe to share between threads, so one per channel and
pool does the same work. The settings name this transport as Celery's `broker_transport`
(kombu takes a transport class by its import path; the broker URL still says where Redis is).
"""

from kombu.transport import redis as redis_transport


class Channel(redis_transport.Channel):
    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        client = self.__dict__.get("_sync_client")
        # A new pool (after a fork or a reconnection) gets a new client.
        if client is None or client.connection_pool is not pool:
            client = self._sync_client = super()._create_client()
        return client


class Transport(redis_transport.Transport):
    Channel = Channel
