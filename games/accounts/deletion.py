"""Deleting an account: the person's data goes, their games and everyone's ratings stay.

The User row is scrubbed in place rather than deleted (docs/accounts.md explains the choice):
seats keep pointing at it, so finished games still show a seat, named "Deleted player"
(User.public_name), and a recomputation of the ratings finds the same players in the same games,
so nobody else's rating moves. What identifies the person is removed: username (freed for
anyone, replaced by deleted-<id>), names, both e-mail addresses, the password (made unusable),
staff rights, groups and permissions, the record of connections, and this session; every other
session of the account dies at its next request, since Django checks each session against the
password, and an inactive account cannot log in at all.

Other apps with data of a person (bot tokens, chat mutes...) connect to `account_deleted`,
sent inside the same transaction, to remove or anonymise theirs. The account's open sockets are
closed after the commit (games/accounts/sockets.py): they make no new request, so the session
check alone would not stop them.

Deletion and joining a table serialise on the account's row: the deletion locks it and checks
for unfinished games under the lock, a join locks it and checks that the account still exists
(games/lobby/tables.py). Whichever comes second sees the first: a join that won makes the deletion
refuse (a game to finish), a deletion that won makes the join refuse; a deleted account never
holds a seat.
"""

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from games.accounts.sockets import ACCOUNT_DELETED, end_account_sockets
from games.models import Game, Presence, Seat

# Sent with `user` (already scrubbed) inside the deletion's transaction.
account_deleted = Signal()

USERNAME_PREFIX = "deleted-"


class DeletionRefused(Exception):
    """The account sits at a table that is open or being played (found under the row lock)."""


def unfinished_games(user) -> list[Game]:
    """Tables the person sits at that are still open or being played: they block the deletion
    (leave the table, or finish the game), since a seat cannot be handed over from here."""
    return list(
        Game.objects.filter(
            seats__user=user, status__in=[Game.Status.OPEN, Game.Status.PLAYING]
        ).order_by("pk")
    )


def scrubbed_username(user) -> str:
    name = f"{USERNAME_PREFIX}{user.pk}"
    taken = get_user_model().objects.filter(username=name).exclude(pk=user.pk).exists()
    # Sign-up refuses the prefix, so only an account older than that rule could hold the name.
    return f"{name}-{secrets.token_hex(4)}" if taken else name


def delete_account(user) -> None:
    """Scrub the account in one transaction; DeletionRefused, changing nothing, if it has an
    unfinished game. The caller checked the password, and logs the request out afterwards."""
    with transaction.atomic():
        # A join of this account waits for the lock, then finds the account deleted.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if unfinished_games(user):
            raise DeletionRefused
        user.username = scrubbed_username(user)
        user.display_name = user.first_name = user.last_name = ""
        user.email = user.pending_email = ""
        user.set_unusable_password()
        user.is_active = user.is_staff = user.is_superuser = False
        user.last_login = None
        user.deleted_at = timezone.now()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        Presence.objects.filter(user=user).delete()
        # Invitations to tables not yet started: the seat opens for someone else.
        Seat.objects.filter(reserved_for=user, game__status=Game.Status.OPEN).update(
            reserved_for=None
        )
        account_deleted.send(sender=get_user_model(), user=user)
        end_account_sockets(user.pk, ACCOUNT_DELETED)
