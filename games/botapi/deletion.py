"""A deleted account takes its tokens with it: the person's own and those of the bot accounts
they own stop working at once (the bots' games and ratings stay, like the person's)."""

from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from games.account_deletion import account_deleted
from games.botapi.models import AccessToken


@receiver(account_deleted, dispatch_uid="botapi-revoke-tokens-of-deleted-accounts")
def revoke_tokens_of_deleted_account(sender, user, **kwargs):
    owned = Q(user=user) | Q(user__bot_account__owner=user)
    AccessToken.objects.filter(owned, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_by=None
    )
