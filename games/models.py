"""The platform's models: players now; games, seats and the action log come with live play."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person who plays. A custom user model from the start, as Django advises."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see. Your username is used when empty."),
    )

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
