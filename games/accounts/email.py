"""A person's e-mail address: the verification link, and the limit on mails asked for.

`User.email` holds only a verified address; a new one waits in `User.pending_email` until the
person follows the link mailed to it. The link carries a signed, timestamped token naming the
account and the address (django.core.signing), so it needs no table: it stops working after
EMAIL_VERIFICATION_SECONDS, when tampered with, when opened by another account, and once the
address it names is no longer the one waiting (verified, replaced or removed).

Mails cost the site (and can pester whoever owns an address), so every mail a person asks for,
password resets and verification links alike, takes a slot per address and per client address
before anything is sent (ACCOUNT_MAILS_PER_ADDRESS, ACCOUNT_MAILS_PER_IP in
ACCOUNT_MAIL_WINDOW_MINUTES; games/limits/throttles.py). Both are counted whether or not an account
has the address, so a refusal tells nothing about accounts.

A password reset is mailed by a job ("password_reset_mail", games/tasks.py), never by the request:
the request does the same work whoever has the address (take the slots, announce the job), so
neither its answer nor its time tells whether an account has the address; the job finds the
accounts and sends (an SMTP server may take most of a second).
"""

import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import jobs
from games.forms.accounts import VerifiedAddressPasswordResetForm
from games.limits.throttles import Counter, Refusal, Taken, address_key, take

log = logging.getLogger(__name__)

SALT = "games.accounts.email.verify"

MAILS_BY_ADDRESS = Counter(
    "account-mails-address", "ACCOUNT_MAILS_PER_ADDRESS", "ACCOUNT_MAIL_WINDOW_MINUTES"
)
MAILS_BY_CLIENT = Counter(
    "account-mails-client", "ACCOUNT_MAILS_PER_IP", "ACCOUNT_MAIL_WINDOW_MINUTES"
)


def mail_key(address: str) -> str:
    return address.strip().casefold()


def take_mail_slot(request, address: str) -> Taken:
    """A slot for one mail to `address` asked for by this client, or the refusal; taken before
    anything is sent, and kept whatever follows (the mail was asked for)."""
    return take(MAILS_BY_ADDRESS.of(mail_key(address)), MAILS_BY_CLIENT.of(address_key(request)))


# --- The password reset mail ----------------------------------------------------------------------

RESET_MAIL_JOB = "password_reset_mail"
RESET_SUBJECT_TEMPLATE = "registration/password_reset_subject.txt"
RESET_BODY_TEMPLATE = "registration/password_reset_email.txt"


def announce_password_reset(request, address: str) -> None:
    """Have the reset link mailed to `address` if an account may use it: the same work here
    whoever has the address. The job writes the mail in the asker's language."""
    jobs.later(
        RESET_MAIL_JOB,
        address,
        request.get_host(),
        request.is_secure(),
        translation.get_language(),
    )


def send_password_reset(address: str, domain: str, use_https: bool, language: str) -> None:
    """The job: mail the reset link to every active account whose verified address this is
    (Django's PasswordResetForm finds them, makes the links and sends). Run twice (a worker lost
    mid-job), it mails the link twice; both links work."""
    form = VerifiedAddressPasswordResetForm({"email": address})
    if not form.is_valid():
        return
    with translation.override(language):
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name=RESET_SUBJECT_TEMPLATE,
            email_template_name=RESET_BODY_TEMPLATE,
        )


# --- The verification link ----------------------------------------------------------------------


def verification_token(user) -> str:
    return signing.dumps({"user": user.pk, "email": user.pending_email}, salt=SALT)


@dataclass(frozen=True)
class LinkCheck:
    """What a verification link is worth for the account that opened it."""

    problem: str = ""  # "" when the link may verify `address`; else one of PROBLEMS' keys
    address: str = ""


# The reasons a link verifies nothing (the views word them for the person).
PROBLEMS = ("invalid", "expired", "other_account", "stale", "taken")


def check_link(user, token: str) -> LinkCheck:
    try:
        payload = signing.loads(token, salt=SALT, max_age=settings.EMAIL_VERIFICATION_SECONDS)
    except signing.SignatureExpired:
        return LinkCheck("expired")
    except signing.BadSignature:
        return LinkCheck("invalid")
    if not isinstance(payload, dict) or payload.get("user") != user.pk:
        return LinkCheck("other_account")
    address = payload.get("email") or ""
    if not address or address != user.pending_email:
        return LinkCheck("stale")
    if address_taken(address, user):
        return LinkCheck("taken", address)
    return LinkCheck("", address)


def address_taken(address: str, user) -> bool:
    """Whether another account already verified this address (whatever its case)."""
    return get_user_model().objects.filter(email__iexact=address).exclude(pk=user.pk).exists()


def verify(user, token: str) -> LinkCheck:
    """Make the waiting address the account's verified one, if the link allows it."""
    check = check_link(user, token)
    if check.problem:
        return check
    user.email, user.pending_email = check.address, ""
    try:
        with transaction.atomic():
            user.save(update_fields=["email", "pending_email"])
    except IntegrityError:  # verified by another account in the meantime
        user.refresh_from_db(fields=["email", "pending_email"])
        return LinkCheck("taken", check.address)
    return check


def send_verification(request, user) -> Refusal | None:
    """Mail the link for the account's waiting address, unless too many mails were asked for.

    A mail that cannot be sent (the SMTP server is down) is logged, not shown as an error page:
    the address still waits, and the profile offers to send the link again.
    """
    address = user.pending_email
    taken = take_mail_slot(request, address)
    if taken.refusal:
        return taken.refusal
    link = request.build_absolute_uri(
        reverse("email_verify", kwargs={"token": verification_token(user)})
    )
    context = {"user": user, "link": link, "days": settings.EMAIL_VERIFICATION_SECONDS // 86400}
    subject = "".join(render_to_string("accounts/verify_email_subject.txt", context).splitlines())
    body = render_to_string("accounts/verify_email.txt", context)
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # the backend's errors vary (SMTPException, OSError, ...)
        log.exception("could not send the verification mail of account %s", user.pk)
    return None
