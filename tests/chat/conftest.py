"""The web tests' fixtures, for the table talk tests (tests/web/conftest.py holds them)."""

from tests.web.conftest import (  # noqa: F401 - fixtures are found by name
    announced,
    close_async_db_connections,
    configured_layer,
    fast_bots,
    make_table,
    make_user,
    start_stacked,
)
