"""Template tags that show matches on pages whose views belong to other parts (the lobby)."""

from django import template

from games.matches.models import Match

register = template.Library()

# The lobby lists at most this many matches being played, the newest first.
LOBBY_MATCHES = 10


@register.simple_tag
def matches_in_play():
    return list(Match.objects.filter(status=Match.Status.PLAYING)[:LOBBY_MATCHES])
