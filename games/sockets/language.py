"""The language of a websocket: what LocaleMiddleware would pick for the page that opened it.

Channels has no LocaleMiddleware, so a socket's messages (its error frames) would otherwise be
in the default language. The page and its socket share the language cookie and the browser's
Accept-Language header; the choice below follows the middleware's order: cookie, then header.
"""

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def _supported(code: str | None) -> str | None:
    if not code:
        return None
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None


def language_of(scope: dict) -> str:
    """A code from settings.LANGUAGES for this socket's scope."""
    cookie = _supported((scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        if code != "*" and (found := _supported(code)):
            return found
    return settings.LANGUAGE_CODE
