"""Signing up, logging out and changing a password, on top of Django's auth views.

Each view tells the person what happened through the messages framework, so the base layout
can show it on whatever page they land on.
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.messages.views import SuccessMessageMixin
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView

from games.forms.accounts import SignUpForm, ThrottledAuthenticationForm
from games.next_links import safe_next_url, with_next
from games.throttles import count_signup, signup_refusal

TOO_MANY_REQUESTS = 429


class SignUpView(FormView):
    """Creates the account and logs the new player in at once: no e-mail round trip to play."""

    template_name = "registration/signup.html"
    form_class = SignUpForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("home")
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        # Refused before the form is even validated: a sign-up costs a password hash.
        refusal = signup_refusal(request)
        if refusal:
            messages.error(request, refusal.message)
            context = self.get_context_data(form=self.form_class())
            return self.render_to_response(context, status=TOO_MANY_REQUESTS)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        user = form.save()
        count_signup(self.request)
        login(self.request, user, backend="games.throttles.ThrottledModelBackend")
        messages.success(
            self.request,
            _("Welcome, %(name)s! Your account is ready.") % {"name": user.public_name},
        )
        return redirect(safe_next_url(self.request, reverse_lazy("home")))

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


class PasswordChangeWithMessageView(SuccessMessageMixin, auth_views.PasswordChangeView):
    """Back to the profile after a change, instead of a page that only says "done"."""

    success_url = reverse_lazy("profile")
    success_message = gettext_lazy("Your password has been changed.")
