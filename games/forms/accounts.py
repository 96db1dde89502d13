"""Account forms: Django's own, fitted to the custom user with its display name."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
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
