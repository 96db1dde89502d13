"""The admin of the Bot API: bot accounts, their tokens (never their secrets), challenges.

Staff revoke a token with the "Revoke" action; a token's digest is never shown.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import tokens
from .models import AccessToken, BotAccount, Challenge


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "owner", "created_at")
    search_fields = ("user__username", "owner__username")
    raw_id_fields = ("user", "owner")


@admin.action(description=_("Revoke the selected tokens"))
def revoke_tokens(modeladmin, request, queryset):
    revoked = sum(tokens.revoke(token, request.user) for token in queryset)
    modeladmin.message_user(
        request,
        ngettext("%(count)d token revoked.", "%(count)d tokens revoked.", revoked)
        % {"count": revoked},
    )


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ("prefix", "name", "user", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "name", "prefix")
    fields = (
        "user",
        "name",
        "prefix",
        "scopes",
        "created_at",
        "last_used_at",
        "revoked_at",
        "revoked_by",
    )
    readonly_fields = fields
    actions = (revoke_tokens,)

    def has_add_permission(self, request):
        return False  # a token is made by its owner, who alone sees it once


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("game", "challenger", "bot", "status", "created_at", "answered_at")
    list_filter = ("status",)
    raw_id_fields = ("game", "challenger", "bot")
