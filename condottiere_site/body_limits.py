"""The cap on HTTP request bodies (REQUEST_BODY_MAX_BYTES), whatever stands in front of the site.

Django guards form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) only once the whole body has been read:
its ASGI handler first copies every byte the server passes into a temporary file. So the cap is
held before Django, twice:

- `RequestBodyCap`, an ASGI middleware for any server: a declared `Content-Length` over the cap
  is answered 413 before a byte of the body is read; a body sent without one (chunked) is
  counted as it streams in and cut off past the cap (Django is told the client left, and the
  client gets the 413).
- Daphne, though, reads a whole request body into a file of its own (Twisted's) before it hands
  the request to any application. `install_in_daphne` makes its request class answer 413 and
  close the connection as soon as the headers declare too much, or as soon as a chunked body
  passes the cap, so nothing past the cap is ever read or stored.

A cap of 0 is no cap.
"""

import logging

from django.conf import settings
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

STATUS_TOO_LARGE = 413


def body_limit() -> int:
    return settings.REQUEST_BODY_MAX_BYTES


def too_large_text(limit: int) -> bytes:
    message = _("The request is too large: the site accepts at most %(limit)s bytes.") % {
        "limit": f"{limit:,}"
    }
    return (message + "\n").encode("utf-8")


def declared_length(headers) -> int | None:
    """The Content-Length of ASGI headers ([(name, value)], bytes), None when absent or unreadable
    (the server refuses an unreadable one before us)."""
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def send_too_large(send, limit: int) -> None:
    body = too_large_text(limit)
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": STATUS_TOO_LARGE, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RequestBodyCap:
    """ASGI middleware: HTTP request bodies of at most REQUEST_BODY_MAX_BYTES (see top)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        limit = body_limit()
        if scope["type"] != "http" or not limit:
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope.get("headers", []))
        if declared is not None and declared > limit:
            await send_too_large(send, limit)
            return
        await CountedBody(self.app, limit).serve(scope, receive, send)


class CountedBody:
    """One request whose body is counted as the application reads it."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit
        self.received = 0
        self.cut_off = False
        self.response_started = False

    async def serve(self, scope, receive, send):
        async def counted_receive():
            message = await receive()
            if message["type"] == "http.request" and not self.cut_off:
                self.received += len(message.get("body", b""))
                if self.received > self.limit:
                    # Django's handler drops a request whose client left, reading no more.
                    self.cut_off = True
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message):
            if message["type"] == "http.response.start":
                self.response_started = True
            await send(message)

        await self.app(scope, counted_receive, watched_send)
        if self.cut_off and not self.response_started:
            await send_too_large(send, self.limit)


# --- Daphne ----------------------------------------------------------------------------------


def too_large_response(limit: int) -> bytes:
    """A whole HTTP/1.1 413 response that closes the connection."""
    body = too_large_text(limit)
    head = (
        f"HTTP/1.1 {STATUS_TOO_LARGE} Payload Too Large\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def capped_request_class(base):
    """Daphne's request class, refusing a body past the cap before it is read or stored."""

    class CappedWebRequest(base):
        body_refused = False
        body_received = 0

        def gotLength(self, length):
            super().gotLength(0 if self.over_limit(length) else length)
            if self.over_limit(length):
                self.refuse_body()

        def handleContentChunk(self, data):
            if self.body_refused:
                return  # arriving before the connection closes: dropped
            self.body_received += len(data)
            if self.over_limit(self.body_received):
                self.refuse_body()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command, path, version):
            if not self.body_refused:  # a refused request never reaches the application
                super().requestReceived(command, path, version)

        @staticmethod
        def over_limit(length) -> bool:
            limit = body_limit()
            return bool(limit) and length is not None and length > limit

        def refuse_body(self):
            self.body_refused = True
            # No "100 Continue" after the refusal (Twisted answers Expect after gotLength).
            self.requestHeaders.removeHeader(b"expect")
            transport = self.channel.transport
            transport.write(too_large_response(body_limit()))
            transport.loseConnection()

    CappedWebRequest.__name__ = CappedWebRequest.__qualname__ = "CappedWebRequest"
    return CappedWebRequest


def install_in_daphne() -> None:
    """Make Daphne's HTTP factory build capped requests (it looks its request class up on each
    connection). Daphne imports the application before it serves, so installing this from the
    ASGI module covers `daphne condottiere_site.asgi:application`."""
    try:
        from daphne import http_protocol
    except ImportError:  # served by another server: the middleware alone holds the cap
        return
    if getattr(http_protocol.WebRequest, "caps_bodies", False):
        return
    capped = capped_request_class(http_protocol.WebRequest)
    capped.caps_bodies = True
    http_protocol.WebRequest = capped
