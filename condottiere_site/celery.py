"""The Celery app: the named jobs of games/tasks.py run here on the Redis broker."""

import os

from celery import Celery, signals
from django.db import close_old_connections

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
