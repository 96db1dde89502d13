"""Fixtures of the Bot API's tests: bot accounts, their tokens, requests carrying a token.

- `make_bot(name, owner=None)`: a bot account (owned by `owner`, a person, if given).
- `make_token(bot, scopes=...)`: a token's secret (the only copy), made through the service.
- `api`: Django's test client with CSRF checks on (the API must not need them) and
  `api.call(method, path, secret, body=None)` returning (status, JSON).
"""

import json

import pytest
from django.test import Client

from games.botapi import accounts, tokens
from games.botapi.models import SCOPE_CHALLENGE, SCOPE_PLAY
from tests.botapi.daphne_site import start_daphne  # noqa: F401 - a fixture for the tests here
from tests.web.conftest import (  # noqa: F401 - fixtures shared with the web tests
    announced,
    close_async_db_connections,
    fast_bots,
    make_table,
    make_user,
)

ALL_SCOPES = [SCOPE_PLAY, SCOPE_CHALLENGE]


@pytest.fixture
def make_bot(make_user):  # noqa: F811 - the imported fixture
    def make(name: str = "robot", owner=None):
        owner = owner or make_user()
        return accounts.create_bot_account(owner, name, display_name=name.title())

    return make


@pytest.fixture
def make_token(db):
    def make(bot, scopes=None) -> str:
        return tokens.create_token(bot, "test", scopes or ALL_SCOPES).secret

    return make


class ApiClient(Client):
    def call(self, method: str, path: str, secret: str | None, body=None):
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        data = json.dumps(body) if body is not None else ""
        response = getattr(self, method.lower())(
            path, data=data, content_type="application/json", headers=headers
        )
        return response.status_code, json.loads(response.content or b"null")


@pytest.fixture
def api():
    return ApiClient(enforce_csrf_checks=True)
