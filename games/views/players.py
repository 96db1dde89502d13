"""Profiles: anyone may look at a player; only the player may rename themselves."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.forms.accounts import DisplayNameForm
from games.views.ratings import profile_rating


def games_played(user) -> int:
    """How many games this player has taken a seat in.

    The one place that answers it. Live play adds a seat model with a foreign key to the user
    (related name `seats`); from then on this counts the distinct games of those seats. Before it
    exists nobody has played, so the answer is 0.
    """
    seats = getattr(user, "seats", None)
    if seats is None:
        return 0
    return seats.values("game").distinct().count()


def _render_profile(request, player, form=None, status=200):
    is_owner = request.user.is_authenticated and request.user.pk == player.pk
    if is_owner and form is None:
        form = DisplayNameForm(instance=player)
    context = {
        "player": player,
        "games_played": games_played(player),
        "is_owner": is_owner,
        "form": form if is_owner else None,
        **profile_rating(player),
    }
    return render(request, "accounts/profile.html", context, status=status)


def player_profile(request, username):
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return _render_profile(request, player)


@login_required
@require_http_methods(["GET", "POST"])
def own_profile(request):
    """The logged-in player's profile; a POST renames them. It only ever edits request.user."""
    if request.method == "GET":
        return _render_profile(request, request.user)
    form = DisplayNameForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _render_profile(request, request.user, form=form, status=400)
    form.save()
    messages.success(
        request, _("Your display name is now “%(name)s”.") % {"name": request.user.public_name}
    )
    return redirect("profile")
