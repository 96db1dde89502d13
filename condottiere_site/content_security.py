"""The Content-Security-Policy header (django-csp), with this host's websocket origins.

The policy itself is CONTENT_SECURITY_POLICY in settings.py. connect-src 'self' covers ws: and wss:
of the same host in CSP Level 3 browsers; older ones (Safari before 15.4) read 'self' as the
page's own scheme only and would refuse the game and lobby sockets, so the host's ws:// and
wss:// origins are named too. The host is the request's, already checked against ALLOWED_HOSTS.
"""

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost


class SiteCSPMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only=False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only=report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts  # a refused host gets the policy without its socket origins
        sockets = {"connect-src": [f"ws://{host}", f"wss://{host}"]}
        parts.update = {**sockets, **(parts.update or {})}
        return parts
