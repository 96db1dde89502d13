"""Pages that play, waiting for live play: they already require a login and keep their URL names.

The live-play work replaces these views; the names `play`, `lobby` and `history` stay.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _


def _coming_soon(request, title):
    return render(request, "partials/coming_soon.html", {"page_title": title})


@login_required
def play(request):
    return _coming_soon(request, _("Play against bots"))


@login_required
def lobby(request):
    return _coming_soon(request, _("Lobby"))


@login_required
def history(request):
    return _coming_soon(request, _("History"))
