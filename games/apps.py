import os

from django.apps import AppConfig
from django.db import connections
from django.utils.translation import gettext_lazy as _


def forget_inherited_database_pools() -> None:
    """In a forked child (a test server, a forked worker) the parent's pooled connections are
    the parent's sockets: using or closing them would talk over the parent's connection. The
    child forgets them, and its first query opens a pool of its own."""
    pools = getattr(type(connections["default"]), "_connection_pools", None)
    if pools:
        pools.clear()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Condottiere")

    def ready(self) -> None:
        # The named jobs register with the job port (games/jobs/__init__.py) when their module
        # loads; a password changed anywhere (a page, a reset, the admin) closes the account's
        # sockets.
        from games import tasks  # noqa: F401
        from games.accounts import sockets  # noqa: F401

        os.register_at_fork(after_in_child=forget_inherited_database_pools)
