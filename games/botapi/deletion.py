"""A deleted account takes its tokens with it: the person's own and those of the bot accounts
they own stop working at once, open sockets and event streams included (the bots' games and
ratings stay, like the person's)."""

from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from games.accounts.deletion import account_deleted
from games.accounts.sockets import end_token_sockets
from games.botapi.models import AccessToken


@receiver(account_deleted, dispatch_uid="botapi-revoke-tokens-of-deleted-accounts")
def revoke_tokens_of_deleted_account(sender, user, **kwargs):
    owned = Q(user=user) | Q(user__bot_account__owner=user)
    active = AccessToken.objects.filter(owned, revoked_at__isnull=True)
    ids = list(active.values_list("pk", flat=True))
    active.update(revoked_at=timezone.now(), revoked_by=None)
    end_token_sockets(ids)  # the sockets and streams of the person's bots (after the commit)
