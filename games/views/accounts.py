"""Signing up, logging out, changing and resetting a password, verifying an e-mail address,
on top of Django's auth views.

Each view tells the person what happened through the messages framework, so the base layout
can show it on whatever page they land on.
"""

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.messages.views import SuccessMessageMixin
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django.views.generic import FormView

from games.accounts.email import (
    announce_password_reset,
    check_link,
    send_verification,
    take_mail_slot,
    verify,
)
from games.accounts.next_links import safe_next_url, with_next
from games.accounts.sockets import LOGGED_OUT
from games.forms.accounts import (
    LogOutEverywhereForm,
    SignUpForm,
    ThrottledAuthenticationForm,
    VerifiedAddressPasswordResetForm,
)
from games.limits.throttles import remember_device, take_signup_slot

TOO_MANY_REQUESTS = 429
# The profile page has two password fields (this form's and the deletion's): distinct names.
LOG_OUT_PREFIX = "sessions"


class SignUpView(FormView):
    """Creates the account and logs the new player in at once: no e-mail round trip to play."""

    template_name = "registration/signup.html"
    form_class = SignUpForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("home")
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        # The slot is taken before the form is even validated (a sign-up costs a password hash),
        # so sign-ups sent together cannot all pass; a form with an error gives it back.
        taken = take_signup_slot(request)
        if taken.refusal:
            messages.error(request, taken.refusal.message)
            context = self.get_context_data(form=self.form_class())
            return self.render_to_response(context, status=TOO_MANY_REQUESTS)
        response = super().post(request, *args, **kwargs)
        if response.status_code != 302:  # no account made
            taken.give_back()
        return response

    def form_valid(self, form):
        user = form.save()
        login(self.request, user, backend="games.limits.throttles.ThrottledModelBackend")
        messages.success(
            self.request,
            _("Welcome, %(name)s! Your account is ready.") % {"name": user.public_name},
        )
        if user.pending_email:
            announce_verification_mail(self.request, user)
        response = redirect(safe_next_url(self.request, reverse_lazy("home")))
        remember_device(response, user)
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # Kept through a failed attempt (it then comes in the POST), and only if it is safe.
        context["next"] = safe_next_url(self.request, "")
        context["login_url"] = with_next("login", context["next"])
        return context


class ThrottledLoginView(auth_views.LoginView):
    """Django's log-in page; an attempt the throttle refused is answered 429, not 200."""

    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # Django's `next` here is already checked to stay on this site.
        context["signup_url"] = with_next("signup", context.get("next", ""))
        return context

    def form_valid(self, form):
        response = super().form_valid(form)
        remember_device(response, form.get_user())
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.throttled:
            response.status_code = TOO_MANY_REQUESTS
        return response


class LogoutWithMessageView(auth_views.LogoutView):
    """Django's POST-only logout, plus a word that it worked."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You have logged out."))
        return response


@login_required
@require_POST
def log_out_everywhere(request):
    """Every other session of the account ends: its next request finds it logged out, its open
    sockets close at once (games/accounts/sockets.py). This one stays. Confirmed by the password,
    which is hashed anew: Django checks each session against the password's hash, so a new salt
    ends them all without a table of sessions per account."""
    form = LogOutEverywhereForm(request.POST, request=request, prefix=LOG_OUT_PREFIX)
    if not form.is_valid():
        messages.error(request, form.errors["password"][0])
        return redirect("profile")
    user = request.user
    user.set_password(form.cleaned_data["password"])
    user.sockets_end_reason = LOGGED_OUT
    user.save(update_fields=["password"])
    update_session_auth_hash(request, user)
    messages.success(request, _("Your account is logged out everywhere else."))
    return redirect("profile")


class PasswordChangeWithMessageView(SuccessMessageMixin, auth_views.PasswordChangeView):
    """Back to the profile after a change, instead of a page that only says "done". The
    account's other sessions end, and every open socket of the account closes, this session's
    too (games/accounts/sockets.py): its pages reconnect under the session's new key."""

    success_url = reverse_lazy("profile")
    success_message = gettext_lazy("Your password has been changed.")


# --- E-mail address: the verification link (games/accounts/email.py) ------------------------------


def announce_verification_mail(request, user) -> None:
    """Send the link for the waiting address and say so, or say why it was not sent."""
    refusal = send_verification(request, user)
    if refusal:
        messages.warning(
            request,
            _("The verification link was not sent: %(reason)s You can send it from your profile.")
            % {"reason": refusal.message},
        )
    else:
        messages.info(
            request,
            _("We sent a link to %(address)s: follow it to verify the address.")
            % {"address": user.pending_email},
        )


LINK_PROBLEMS = {
    "invalid": gettext_lazy(
        "This verification link is not valid. Copy the whole link from the mail."
    ),
    "expired": gettext_lazy(
        "This verification link has expired. Send a new one from your profile."
    ),
    "other_account": gettext_lazy(
        "This verification link is for another account. Log in as that account to use it."
    ),
    "stale": gettext_lazy(
        "This verification link is for an address that no longer waits to be verified "
        "(verified already, replaced or removed)."
    ),
    "taken": gettext_lazy(
        "Another account has already verified this address. Remove it from that account "
        "first, or use another address."
    ),
}
BAD_REQUEST = 400


@login_required
@require_http_methods(["GET", "POST"])
def verify_email(request, token):
    """The link from the mail: a page that names the address, and a button that verifies it.
    Opening the link changes nothing (mail scanners open links); the POST does."""
    check = check_link(request.user, token) if request.method == "GET" else None
    if request.method == "POST":
        check = verify(request.user, token)
        if not check.problem:
            messages.success(
                request, _("%(address)s is now your verified address.") % {"address": check.address}
            )
            return redirect("profile")
    context = {
        "token": token,
        "address": check.address,
        "problem": LINK_PROBLEMS.get(check.problem),
    }
    status = BAD_REQUEST if check.problem else 200
    return render(request, "accounts/verify_email.html", context, status=status)


# --- Password reset: Django's views, to verified addresses only, throttled ------------------------


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's reset page. It answers the same, in the same time, whether an account has the
    address or not: it takes the mail's slots (per address and per client address) and leaves
    finding the account and sending to a job (games/accounts/email.py)."""

    form_class = VerifiedAddressPasswordResetForm

    def form_valid(self, form):
        address = form.cleaned_data["email"]
        taken = take_mail_slot(self.request, address)
        if taken.refusal:
            form.add_error(None, taken.refusal.message)
            return self.render_to_response(
                self.get_context_data(form=form), status=TOO_MANY_REQUESTS
            )
        announce_password_reset(self.request, address)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetConfirmRememberingDevice(auth_views.PasswordResetConfirmView):
    """Django's new-password page. Following the mailed link proves the mailbox: the browser
    becomes a known device, so the owner can log in even while guessers from many addresses
    hold the username at its ceiling (games/limits/throttles.py)."""

    def form_valid(self, form):
        response = super().form_valid(form)
        remember_device(response, form.user)
        return response
