"""Websockets authenticated by an access token (`Authorization: Bearer` on the handshake).

`BearerTokenRouter` sits in front of the websocket routes (condottiere_site/asgi.py). A handshake
with a bearer token is served with `scope["user"]` set to the token's bot account, if the token
is valid and has the scope `bot:play`; a bad one is refused with an error frame and a close code
(4401 for a token that is unknown or revoked, 4403 for one that may not play, 4008 past the
limit on bad tokens per client address, games/botapi/auth.py). Without the
header, the handshake goes the browser's way: the Origin check, then the session's user.

A token socket skips the Origin check on purpose: that check stops other sites' pages from
riding a visitor's cookies, and a page cannot set an Authorization header on a websocket, so a
token can only come from a program that holds it.
"""

import json

from games.sockets.database_threads import in_database_thread

from .auth import limited_token_for
from .models import SCOPE_PLAY
from .tokens import TokenRefused, bearer_secret

CLOSE_BAD_TOKEN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_RATE_LIMITED = 4008  # as a flood's (games/sockets/limits.py)
CLOSE_CODES = {401: CLOSE_BAD_TOKEN, 429: CLOSE_RATE_LIMITED}


def authorization_header(scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return value.decode("latin1")
    return None


async def refuse(refused: TokenRefused, receive, send) -> None:
    """Accept only to say why, then close: a client reads the error frame and the close code."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    frame = {"type": "error", "code": refused.code, "message": str(refused.message)}
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    code = CLOSE_CODES.get(refused.status, CLOSE_FORBIDDEN)
    await send({"type": "websocket.close", "code": code})


class BearerTokenRouter:
    """Token sockets to `token_app` with their bot account as the user; others to
    `session_app`."""

    def __init__(self, token_app, session_app):
        self.token_app = token_app
        self.session_app = session_app

    async def __call__(self, scope, receive, send):
        secret = bearer_secret(authorization_header(scope))
        if secret is None:
            return await self.session_app(scope, receive, send)
        try:
            token = await in_database_thread(limited_token_for)(scope, secret, SCOPE_PLAY)
        except TokenRefused as refused:
            return await refuse(refused, receive, send)
        # The token too: its revocation closes the socket (games/accounts/sockets.py).
        return await self.token_app(
            {**scope, "user": token.user, "token_id": token.pk}, receive, send
        )
