from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Condottiere")

    def ready(self) -> None:
        # The named jobs register with the job port (games/jobs.py) when their module loads.
        from games import tasks  # noqa: F401
