"""Personal access tokens: made, shown once, stored as a SHA-256 digest, checked, revoked.

A token is `cdt_` and 43 characters of `secrets.token_urlsafe(32)` (256 random bits). A digest
without salt is enough for a random secret of that size (nobody can guess it from its hash, unlike
a password), and it lets a request find its token with one indexed lookup.
"""

import hashlib
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.accounts.sockets import end_token_sockets

from .models import SCOPES, AccessToken, BotAccount

TOKEN_PREFIX = "cdt_"
VISIBLE_CHARS = 8  # after the prefix, shown in lists
MAX_TOKENS_PER_ACCOUNT = 10


class TokenRefused(Exception):
    """A token that cannot act: `code` for code and clients, `message` for people."""

    def __init__(self, code: str, message, status: int = 401):
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.status = status


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class NewToken:
    """A token just made: `secret` is the only copy of it there will ever be."""

    token: AccessToken
    secret: str


def create_token(user, name: str, scopes: list[str]) -> NewToken:
    """A new token for a bot account; only its digest is kept."""
    unknown = set(scopes) - set(SCOPES)
    if not scopes or unknown:
        raise TokenRefused("invalid_scopes", _("Choose at least one known scope."), 400)
    if not BotAccount.objects.filter(user=user).exists():
        raise TokenRefused("not_a_bot", _("Only bot accounts have access tokens."), 400)
    with transaction.atomic():
        active = AccessToken.objects.filter(user=user, revoked_at__isnull=True)
        if active.count() >= MAX_TOKENS_PER_ACCOUNT:
            raise TokenRefused(
                "too_many_tokens",
                _("A bot account has at most %(n)d tokens: revoke one first.")
                % {"n": MAX_TOKENS_PER_ACCOUNT},
                400,
            )
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = AccessToken.objects.create(
            user=user,
            name=name.strip()[:60] or str(_("Token")),
            prefix=secret[: len(TOKEN_PREFIX) + VISIBLE_CHARS],
            digest=digest_of(secret),
            scopes=sorted(set(scopes)),
        )
    return NewToken(token, secret)


def revoke(token: AccessToken, by) -> bool:
    """Revoke a token (its owner's person, staff, or the token itself); False if it already was.
    Its open sockets and event streams end at once, after the commit."""
    with transaction.atomic():
        changed = AccessToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now(), revoked_by=by
        )
        end_token_sockets([token.pk])
    return changed == 1


def bearer_secret(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None without one."""
    if not header:
        return None
    kind, _space, value = header.strip().partition(" ")
    if kind.lower() != "bearer":
        return None
    return value.strip()


def token_for(secret: str, scope: str) -> AccessToken:
    """The active token with this secret, allowed `scope`, of a bot account; TokenRefused with a
    clear code (`bad_token`, `revoked_token`, `missing_scope`, `not_a_bot`) otherwise."""
    if not secret.startswith(TOKEN_PREFIX):
        raise TokenRefused("bad_token", _("This is not a Condottiere access token."))
    token = (
        AccessToken.objects.select_related("user", "user__bot_account")
        .filter(digest=digest_of(secret))
        .first()
    )
    if token is None:
        raise TokenRefused("bad_token", _("No such access token."))
    if not token.is_active:
        raise TokenRefused("revoked_token", _("This access token was revoked."))
    if not token.user.is_active:
        raise TokenRefused("account_disabled", _("This account is disabled."), 403)
    if not hasattr(token.user, "bot_account"):
        raise TokenRefused("not_a_bot", _("Only bot accounts can use the Bot API."), 403)
    if not token.has_scope(scope):
        raise TokenRefused(
            "missing_scope",
            _("This token lacks the scope “%(scope)s”.") % {"scope": scope},
            403,
        )
    _note_use(token)
    return token


def _note_use(token: AccessToken) -> None:
    """Remember when the token was last used, at most once a minute (a write per move is waste)."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
