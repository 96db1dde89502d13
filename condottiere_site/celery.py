"""The Celery app: the named jobs of games/tasks.py run here on the Redis broker."""

import os

import redis
from celery import Celery, signals
from django.db import close_old_connections
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "condottiere_site.settings")

app = Celery("condottiere_site")
# Every CELERY_* setting of settings.py configures the app (acks_late, JSON only, broker...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["games"])


@signals.task_prerun.connect
@signals.task_postrun.connect
def give_database_connections_back(**kwargs) -> None:
    """Before and after each job, as Django does around each request: a connection that broke or
    is done goes back to the pool (CELERY_DB_REUSE_MAX keeps Celery from closing the pool)."""
    close_old_connections()


def _survive_a_lost_broker() -> None:
    """Keep a worker alive when Redis goes away while it holds unacknowledged jobs.

    Celery 5.7 / kombu 5.7, on losing the broker, first "collect" the connection (which forgets
    its address: `transport.client = None`) and then close it; closing hands the held jobs back
    (restore_unacked) and needs the address, so it raised AttributeError, which no error handler
    expects: "Unrecoverable error", and the whole worker exited (tests/web/test_faults.py, Redis
    stopped). With acks_late a worker nearly always holds a job (a bot's move waits for its
    pause), so any Redis restart stopped every worker for good. Said as the connection error it
    is, it is ignored as the close path means to, and the worker reconnects; jobs it could not
    hand back stay unacknowledged in Redis until the visibility timeout, or went with Redis
    (the sweep finds that work again). The same failure in the close path is kombu issue #582
    (same traceback through `_connparams`); celery issue #10205 is a worker that stops after a
    broker reset. Patched at the one method, so that a kombu without it fails loudly at import."""
    original = kombu_redis.Channel._connparams

    def connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise redis.exceptions.ConnectionError("the broker connection was already released")
        return original(self, asynchronous=asynchronous)

    kombu_redis.Channel._connparams = connparams


_survive_a_lost_broker()
