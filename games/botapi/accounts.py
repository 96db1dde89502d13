"""Making bot accounts: a person's new bot, or a fresh account upgrading itself (as on lichess).

Either way the account's password becomes unusable, which also ends every session it had (the
session's auth hash is derived from the password): a bot account never acts in a browser.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from .models import BotAccount

MAX_BOTS_PER_OWNER = 5


class BotAccountRefused(Exception):
    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


def is_bot_account(user) -> bool:
    """Whether this user is a bot account (Django caches the answer on the user object)."""
    if user is None or not getattr(user, "pk", None):
        return False
    return hasattr(user, "bot_account")


def bot_user_ids(user_ids) -> set[int]:
    """Which of these users are bot accounts, in one query (for lists of seats and ratings)."""
    return set(BotAccount.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))


def create_bot_account(owner, username: str, display_name: str = ""):
    """A new bot account owned by `owner`, a person, who manages its tokens from their profile."""
    user_model = get_user_model()
    user = user_model(username=username.strip(), display_name=display_name.strip())
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        raise BotAccountRefused("invalid", " ".join(error.messages)) from None
    user.set_unusable_password()
    try:
        with transaction.atomic():
            # Checked and made under the owner's row lock: bots made together stop at the cap,
            # and an upgrade of the owner sent at the same instant waits, then sees the bot.
            lock_account(owner)
            check_may_own_bots(owner)
            user.save()
            BotAccount.objects.create(user=user, owner=owner)
    except IntegrityError:
        raise BotAccountRefused("invalid", _("That username is taken.")) from None
    return user


def lock_account(user) -> None:
    """Lock the account's row until the transaction ends (joins and deletion lock it too)."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def check_may_own_bots(owner) -> None:
    if BotAccount.objects.filter(user_id=owner.pk).exists():
        raise BotAccountRefused("not_a_person", _("A bot account cannot own bots."))
    if BotAccount.objects.filter(owner=owner).count() >= MAX_BOTS_PER_OWNER:
        raise BotAccountRefused(
            "too_many_bots",
            _("You can have at most %(n)d bot accounts.") % {"n": MAX_BOTS_PER_OWNER},
        )


def upgrade_to_bot(user) -> None:
    """Make a fresh account (no game ever joined, not staff, owning no bot) a bot account, for
    good; checked under the account's row lock, so a bot made or a seat taken at the same instant
    is seen."""
    with transaction.atomic():
        lock_account(user)
        check_may_become_bot(user)
        BotAccount.objects.create(user=user, owner=None)
        user.set_unusable_password()
        user.save(update_fields=["password"])


def check_may_become_bot(user) -> None:
    if BotAccount.objects.filter(user_id=user.pk).exists():
        raise BotAccountRefused("already_bot", _("This is already a bot account."))
    if user.is_staff or user.is_superuser:
        raise BotAccountRefused("staff", _("A staff account cannot become a bot."))
    if user.seats.exists():
        raise BotAccountRefused(
            "has_games", _("Only an account that has never taken a seat can become a bot.")
        )
    if BotAccount.objects.filter(owner=user).exists():
        # Else the owner's bots would become a bot's bots, and the person behind them could
        # seat them against the accounts they still play as a person.
        raise BotAccountRefused(
            "owns_bots",
            _("An account that owns bot accounts cannot become a bot: delete them first."),
        )


def bots_owned_by(person) -> list:
    return list(
        get_user_model()
        .objects.filter(bot_account__owner=person)
        .prefetch_related("access_tokens")
        .order_by("username")
    )
