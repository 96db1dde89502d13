"""Moderation in the admin: hide messages (they stay stored, marked deleted, and vanish from
every open chat at once) and silence their authors site-wide."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.services.table_talk import hide_messages, silence

from .models import ChatMessage, ChatMute, ChatSilence


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "room", "user", "seat", "text", "phrase", "deleted")
    list_filter = ("room", "deleted")
    search_fields = ("text", "user__username")
    raw_id_fields = ("game", "user")
    readonly_fields = ("game", "room", "user", "seat", "text", "phrase", "created_at")
    actions = ("delete_messages", "silence_authors")

    @admin.action(description=_("Delete the selected messages (hidden everywhere)"))
    def delete_messages(self, request, queryset):
        hide_messages(list(queryset))
        count = queryset.count()
        self.message_user(
            request,
            ngettext("%(count)d message deleted.", "%(count)d messages deleted.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Silence the authors of the selected messages"))
    def silence_authors(self, request, queryset):
        authors = {message.user for message in queryset.select_related("user") if message.user}
        for author in authors:
            silence(author, by=request.user, reason=str(_("silenced from the chat’s admin")))
        count = len(authors)
        self.message_user(
            request,
            ngettext("%(count)d person silenced.", "%(count)d people silenced.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(ChatSilence)
class ChatSilenceAdmin(admin.ModelAdmin):
    list_display = ("user", "reason", "created_by", "created_at")
    raw_id_fields = ("user", "created_by")
    search_fields = ("user__username",)


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("user", "muted", "created_at")
    raw_id_fields = ("user", "muted")
