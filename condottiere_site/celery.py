"""The Celery app: the named jobs of games/tasks.py run here on the Redis broker."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "condottiere_site.settings")

app = Celery("condottiere_site")
# Every CELERY_* setting of settings.py configures the app (acks_late, JSON only, broker...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["games"])
