"""ASGI entry point: HTTP through Django, websockets through Channels consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "condottiere_site.settings")

# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games import jobs  # noqa: E402
from games.botapi.websocket_auth import BearerTokenRouter  # noqa: E402

from .body_limits import RequestBodyCap, install_in_daphne  # noqa: E402
from .routing import websocket_urlpatterns  # noqa: E402

# Request bodies are capped before Django reads them, in Daphne itself and for any other server.
install_in_daphne()

application = ProtocolTypeRouter(
    {
        "http": RequestBodyCap(django_asgi_app),
        # A bot's socket carries its access token (Authorization: Bearer, games/botapi);
        # a browser's, its session cookie and an Origin of this site.
        "websocket": BearerTokenRouter(
            token_app=URLRouter(websocket_urlpatterns),
            session_app=AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        ),
    }
)

# Serving: in the embedded profile the sweep for overdue work runs on a timer in this process.
jobs.start_periodic_sweep()
