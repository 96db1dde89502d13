"""Which address a request or a websocket came from, for throttles and per-address caps.

Without a trusted proxy (TRUSTED_PROXY_COUNT = 0, the default) the answer is the peer of the
connection: anybody can write an X-Forwarded-For header, so believing it would let one client
pose as a thousand. With TRUSTED_PROXY_COUNT = n, n proxies of ours stand in front of the site and
each appends the address it received the connection from: the n-th address from the right was
written by our outermost proxy and is the client's; anything to its left came from the client.
"""

import ipaddress

from django.conf import settings

FORWARDED_FOR_HEADER = "HTTP_X_FORWARDED_FOR"
UNKNOWN = "unknown"


def client_ip(request_or_scope) -> str:
    """The client's address as text: an HttpRequest or an ASGI scope (a dict) is accepted.

    Returns "unknown" when the server knows no peer (a unix socket with no proxy in front), so
    that such clients share one throttle instead of escaping every throttle.
    """
    if isinstance(request_or_scope, dict):
        peer, forwarded_for = _from_scope(request_or_scope)
    else:
        peer = request_or_scope.META.get("REMOTE_ADDR") or ""
        forwarded_for = request_or_scope.META.get(FORWARDED_FOR_HEADER, "")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = _nth_from_right(forwarded_for, proxies)
        if forwarded:
            return forwarded
    return _valid_address(peer) or UNKNOWN


def _from_scope(scope: dict) -> tuple[str, str]:
    client = scope.get("client") or ("", 0)
    headers = [
        value.decode("latin-1")
        for name, value in scope.get("headers", [])
        if name.lower() == b"x-forwarded-for"
    ]
    # Several X-Forwarded-For lines mean one list, in order (RFC 9110, 5.3).
    return str(client[0] or ""), ",".join(headers)


def _nth_from_right(forwarded_for: str, n: int) -> str | None:
    addresses = [part.strip() for part in forwarded_for.split(",") if part.strip()]
    if len(addresses) < n:
        # Fewer entries than proxies: the request did not come through all of them, so no entry
        # can be trusted; the peer (a proxy of ours, or the client itself) is used instead.
        return None
    return _valid_address(addresses[-n])


def _valid_address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


# An IPv6 client usually holds a whole /64: counting single addresses would let it rotate.
IPV6_PREFIX = 64


def address_group(address: str) -> str:
    """What a throttle counts an address as: itself, or its /64 network for IPv6."""
    if ":" in address:
        network = ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False)
        return str(network.network_address)
    return address
