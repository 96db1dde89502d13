"""Account forms: Django's own, fitted to the custom user with its display name."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    """Username, an optional display name, and the password twice with Django's validators."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}
        )
        self.fields["display_name"].widget.attrs.update({"autocomplete": "nickname"})


class DisplayNameForm(forms.ModelForm):
    """Only the display name: the username is the player's permanent address (/players/<name>/)."""

    class Meta:
        model = get_user_model()
        fields = ("display_name",)
        help_texts = {
            "display_name": _("The name other players see. Leave it empty to use your username."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["display_name"].widget.attrs.update({"autocomplete": "nickname"})


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's log-in form, saying "too many attempts" when the throttle refused the attempt.

    The refusal itself happens in games.throttles.ThrottledModelBackend, before any hash; here it
    only replaces "wrong username or password", which would be a lie.
    """

    THROTTLED = "throttled"

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            refusal = getattr(self.request, "login_refusal", None)
            if refusal is None:
                raise
            raise ValidationError(refusal.message, code=self.THROTTLED) from None

    @property
    def throttled(self) -> bool:
        return self.has_error(forms.forms.NON_FIELD_ERRORS, code=self.THROTTLED)
