"""Where a person was going, carried through log-in and sign-up as Django's `next` parameter.

The forms read it back (`safe_next_url`); every link to them carries it (`with_next`), the
header's included (`account_links`, a context processor): from an invitation, a table or "Play
against bots", logging in or signing up lands where the person was.
"""

from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

ACCOUNT_PAGES = ("login", "signup")


def safe_next_url(request, default: str) -> str:
    """The `next` the form carried, if it stays on this site; otherwise `default`."""
    candidate = request.POST.get("next") or request.GET.get("next")
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return default


def with_next(url_name: str, next_url: str) -> str:
    """The page `url_name`, carrying `next` on: switching between log-in and sign-up must not
    lose where the person was going (an invitation, a table, "Play against bots")."""
    url = reverse(url_name)
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def page_to_return_to(request) -> str:
    """This page, for the header's links; on the log-in and sign-up pages, their own `next`.
    The home page and pages answering a form (a POST) need no return."""
    match = request.resolver_match
    if match is not None and match.url_name in ACCOUNT_PAGES:
        return safe_next_url(request, "")
    if request.method != "GET" or request.path == reverse("home"):
        return ""
    return request.get_full_path()


def account_links(request) -> dict:
    """`login_link` and `signup_link` for the header, for visitors not logged in."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return {}
    back = page_to_return_to(request)
    return {"login_link": with_next("login", back), "signup_link": with_next("signup", back)}
