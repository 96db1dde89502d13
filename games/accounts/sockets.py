"""Ending what an account has open, at once: a revoked token's sockets and event streams; every
socket of an account whose password changed, that was logged out everywhere, or was deleted.

A session's next request is refused by Django once its credentials are gone, but an open socket
makes no new request: it would keep acting. So every signed-in socket (game and lobby) joins its
account's channel-layer group, and a socket or event stream opened with a Bot API token also
joins its token's group. Ending sends, after the commit, an `account.end` notice to the group;
each socket then sends an `error` frame naming the reason and closes with CLOSE_SIGNED_OUT, and
no frame of it is read after the notice. The close notice goes through Redis in production, so it
reaches the sockets of every Daphne process.

A socket that connected while the credentials were being revoked could join its group after the
notice went out: so, once joined, it checks its credentials again (`still_signed_in`) and
closes the same way if they are gone.

Group names carry the database's name: two sites (or two test runs) sharing a Redis never close
each other's sockets.
"""

import re
from importlib import import_module
from types import SimpleNamespace

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user
from django.db import connection, transaction
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from games.services.notify import group_send_now
from games.sockets.database_threads import in_database_thread

# The socket's credentials are gone: log in again, or use another token. Do not reconnect with
# the same ones (a token socket's handshake would be refused with the same code).
CLOSE_SIGNED_OUT = 4401

REVOKED_TOKEN = "revoked_token"
PASSWORD_CHANGED = "password_changed"
LOGGED_OUT = "logged_out"
ACCOUNT_DELETED = "account_deleted"


def reason_message(reason: str) -> str:
    """The error frame's message for each reason, in the socket's language."""
    messages = {
        REVOKED_TOKEN: _("This access token was revoked."),
        PASSWORD_CHANGED: _("The password of this account was changed: log in again."),
        LOGGED_OUT: _("This account was logged out everywhere: log in again."),
        ACCOUNT_DELETED: _("This account was deleted."),
    }
    return messages.get(reason, messages[LOGGED_OUT])


def _site() -> str:
    name = str(connection.settings_dict.get("NAME") or "")
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[-40:]


def account_group(user_id: int) -> str:
    return f"account-{_site()}-{user_id}"


def token_group(token_id: int) -> str:
    return f"token-{_site()}-{token_id}"


def end_message(reason: str) -> dict:
    return {"type": "account.end", "reason": reason}


def end_account_sockets(user_id: int, reason: str) -> None:
    """After the commit, close every open socket of the account (every session, every token)."""
    group = account_group(user_id)
    transaction.on_commit(lambda: group_send_now(group, end_message(reason)), robust=True)


def end_token_sockets(token_ids, reason: str = REVOKED_TOKEN) -> None:
    """After the commit, close the open sockets and event streams of these tokens."""
    groups = [token_group(token_id) for token_id in token_ids]

    def send():
        for group in groups:
            group_send_now(group, end_message(reason))

    transaction.on_commit(send, robust=True)


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="end-sockets-on-new-password")
def end_sockets_on_new_password(sender, instance, update_fields=None, **kwargs):
    """A new password (changed, reset, set by staff) ends every session Django checks against
    the old one; this ends their open sockets too, the changing session's included (its page
    reconnects under the session's new key). A deletion says so itself, and a log-out
    everywhere names itself in `instance.sockets_end_reason`."""
    if instance.pk is None or instance.deleted_at:
        return
    if update_fields is not None and "password" not in update_fields:
        return  # a log-in's last_login, a display name: the common saves cost no query
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        end_account_sockets(instance.pk, getattr(instance, "sockets_end_reason", PASSWORD_CHANGED))


def groups_of(scope) -> list[str]:
    """The groups a socket joins: its account's, and its token's if it was opened with one."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return []
    groups = [account_group(user.pk)]
    if scope.get("token_id") is not None:
        groups.append(token_group(scope["token_id"]))
    return groups


def token_active(token_id: int) -> bool:
    """Whether the token is still unrevoked and its account active (sockets, event streams and
    long polls check it the same way)."""
    # The model by its label: the Bot API app builds on this module, not the other way.
    tokens = apps.get_model("botapi", "AccessToken").objects
    return tokens.filter(pk=token_id, revoked_at__isnull=True, user__is_active=True).exists()


def still_signed_in(scope) -> bool:
    """Whether the socket's credentials still hold, read afresh: its token is still active, or
    its session still names its user (Django's check against the password)."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    if scope.get("token_id") is not None:
        return token_active(scope["token_id"])
    session = scope.get("session")
    if session is None or session.session_key is None:
        return user.is_active  # a user not read from a session (a test's communicator)
    fresh = import_module(settings.SESSION_ENGINE).SessionStore(session.session_key)
    return get_user(SimpleNamespace(session=fresh)).pk == user.pk


class EndsWithAccount:
    """A consumer mixin: `join_account_groups()` once signed in, `leave_account_groups()` on
    disconnect. Needs `cut_off` (no frame is read once it is set) and `send_json`."""

    account_groups: tuple[str, ...] = ()

    async def join_account_groups(self) -> bool:
        """Join; False if the credentials are already gone (the socket is then closing)."""
        groups = tuple(groups_of(self.scope))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.account_groups = groups
        if groups and not await in_database_thread(still_signed_in)(self.scope):
            reason = REVOKED_TOKEN if self.scope.get("token_id") is not None else LOGGED_OUT
            await self.account_end({"reason": reason})
            return False
        return True

    async def leave_account_groups(self) -> None:
        for group in self.account_groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def account_end(self, message):
        """The group's notice: say why, close, and read nothing more (once: a deletion may also
        revoke the socket's token, and a socket closing for another reason stays closing)."""
        if self.cut_off:
            return
        self.cut_off = True
        reason = message.get("reason", LOGGED_OUT)
        frame = {"type": "error", "code": reason, "message": reason_message(reason)}
        await self.send_json({**frame, "version": None})
        await self.close(code=CLOSE_SIGNED_OUT)
