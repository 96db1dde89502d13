"""Account forms: Django's own, fitted to the custom user with its display name."""

from django import forms
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.accounts.deletion import USERNAME_PREFIX

EMAIL_HELP = _(
    "Optional. Only to reset a forgotten password: we mail a link to check the address, "
    "and never show it to anyone."
)


def email_field(*, required: bool) -> forms.EmailField:
    field = forms.EmailField(
        label=_("E-mail address"), required=required, max_length=254, help_text=EMAIL_HELP
    )
    field.widget.attrs.update({"autocomplete": "email"})
    return field


def normalized_email(address: str) -> str:
    """The address as stored: the domain in lower case (it is case-insensitive)."""
    return BaseUserManager.normalize_email(address.strip())


class SignUpForm(UserCreationForm):
    """Username, an optional display name, an optional e-mail address (kept waiting for its
    verification link, see games/accounts/email.py), and the password twice with Django's
    validators."""

    email = email_field(required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name")

    field_order = ("username", "display_name", "email", "password1", "password2")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}
        )
        self.fields["display_name"].widget.attrs.update({"autocomplete": "nickname"})
        self.order_fields(self.field_order)

    def clean_username(self):
        username = super().clean_username()
        # Deleted accounts are renamed deleted-<id> (games/accounts/deletion.py).
        if username and username.casefold().startswith(USERNAME_PREFIX):
            raise ValidationError(
                _("Usernames starting with “%(prefix)s” are reserved."),
                code="reserved",
                params={"prefix": USERNAME_PREFIX},
            )
        return username

    def clean_email(self):
        return normalized_email(self.cleaned_data["email"])

    def save(self, commit=True):
        user = super().save(commit=False)
        user.pending_email = self.cleaned_data["email"]
        if commit:
            user.save()
        return user


class EmailAddressForm(forms.Form):
    """A new address for the profile: it waits for its link; the verified one stays till then."""

    email = email_field(required=True)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["email"].help_text = _(
            "We mail a link to this address; it becomes your address once you follow it."
        )

    def clean_email(self):
        address = normalized_email(self.cleaned_data["email"])
        if address.casefold() == self.user.email.casefold():
            raise ValidationError(
                _("This is already your verified address."), code="already_verified"
            )
        return address


class DeleteAccountForm(forms.Form):
    """The password once more: deleting an account cannot be undone."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self):
        password = self.cleaned_data["password"]
        user = self.request.user
        # Through the log-in throttle: a wrong password here is a failed log-in.
        if authenticate(self.request, username=user.get_username(), password=password) is None:
            refusal = getattr(self.request, "login_refusal", None)
            if refusal is not None:
                raise ValidationError(refusal.message, code="throttled")
            raise ValidationError(_("That is not your password."), code="wrong_password")
        return password


class LogOutEverywhereForm(DeleteAccountForm):
    """The password once more: it is hashed anew, which ends every session of the account."""


class VerifiedAddressPasswordResetForm(PasswordResetForm):
    """Django's reset form. It mails only verified addresses of active accounts with a
    password, because `User.email` holds nothing else; it says the same whatever it finds."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("E-mail address")
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})


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

    The refusal itself happens in games.limits.throttles.ThrottledModelBackend, before any hash;
    here it only replaces "wrong username or password", which would be a lie.
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
