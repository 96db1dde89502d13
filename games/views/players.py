"""Profiles: anyone may look at a player; only the player may rename themselves, set or
remove their e-mail address, and delete their account."""

from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.accounts.deletion import DeletionRefused, delete_account, unfinished_games
from games.forms.accounts import (
    DeleteAccountForm,
    DisplayNameForm,
    EmailAddressForm,
    LogOutEverywhereForm,
)
from games.views.accounts import LOG_OUT_PREFIX, announce_verification_mail
from games.views.ratings import profile_rating

BAD_REQUEST = 400


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


def _render_profile(request, player, status=200, **forms):
    is_owner = request.user.is_authenticated and request.user.pk == player.pk
    context = {
        "player": player,
        "games_played": games_played(player),
        "is_owner": is_owner,
        **profile_rating(player),
    }
    if is_owner:
        context.update(
            form=forms.get("form") or DisplayNameForm(instance=player),
            email_form=forms.get("email_form") or EmailAddressForm(user=player),
            delete_form=forms.get("delete_form") or DeleteAccountForm(request=request),
            sessions_form=LogOutEverywhereForm(request=request, prefix=LOG_OUT_PREFIX),
            blocking_games=unfinished_games(player),
        )
    return render(request, "accounts/profile.html", context, status=status)


def player_profile(request, username):
    # A deleted account keeps a page (its games link here) that says only that it was deleted.
    player = get_object_or_404(
        get_user_model(), Q(is_active=True) | Q(deleted_at__isnull=False), username=username
    )
    if player.deleted_at:
        context = {"player": player, "games_played": games_played(player)}
        return render(request, "accounts/deleted_profile.html", context)
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


# --- The e-mail address (docs/accounts.md) -------------------------------------------------------


@login_required
@require_POST
def email_change(request):
    """A new address waits for its link; the verified one, if any, stays until then."""
    form = EmailAddressForm(request.POST, user=request.user)
    if not form.is_valid():
        return _render_profile(request, request.user, status=BAD_REQUEST, email_form=form)
    request.user.pending_email = form.cleaned_data["email"]
    request.user.save(update_fields=["pending_email"])
    announce_verification_mail(request, request.user)
    return redirect("profile")


@login_required
@require_POST
def email_resend(request):
    if not request.user.pending_email:
        messages.error(request, _("No address is waiting to be verified."))
        return redirect("profile")
    announce_verification_mail(request, request.user)
    return redirect("profile")


# Which address a "remove" button names, and the field that holds it.
ADDRESS_FIELDS = {"verified": "email", "pending": "pending_email"}


@login_required
@require_POST
def email_remove(request):
    field = ADDRESS_FIELDS.get(request.POST.get("address", ""))
    if field is None or not getattr(request.user, field):
        messages.error(request, _("There is no such address to remove."))
        return redirect("profile")
    setattr(request.user, field, "")
    request.user.save(update_fields=[field])
    if field == "email":
        messages.success(
            request, _("Your address is removed: a forgotten password can no longer be reset.")
        )
    else:
        messages.success(request, _("The address waiting to be verified is removed."))
    return redirect("profile")


# --- Deleting the account ----------------------------------------------------------------------


@login_required
@require_POST
def account_delete(request):
    """Confirmed by the password; refused, changing nothing, while a table of theirs is open or
    a game of theirs is being played."""
    user = request.user
    form = DeleteAccountForm(request.POST, request=request)
    if unfinished_games(user):
        messages.error(
            request, _("Leave your open tables and finish your games before deleting your account.")
        )
        return _render_profile(request, user, status=BAD_REQUEST, delete_form=form)
    if not form.is_valid():
        throttled = form.has_error("password", code="throttled")
        return _render_profile(
            request, user, status=429 if throttled else BAD_REQUEST, delete_form=form
        )
    try:
        delete_account(user)
    except DeletionRefused:  # a seat taken since the check above, by another of their tabs
        messages.error(
            request, _("Leave your open tables and finish your games before deleting your account.")
        )
        return _render_profile(request, user, status=BAD_REQUEST, delete_form=form)
    logout(request)
    messages.success(request, _("Your account is deleted. Farewell, condottiere."))
    return redirect("home")
