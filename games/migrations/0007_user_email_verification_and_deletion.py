"""E-mail verification and account deletion (docs/accounts.md).

Addresses entered before this migration (only the staff could, in the admin) are kept as
verified. Where two accounts share one address whatever its case, the oldest account keeps it
and the others get it back as an address to verify, so that the uniqueness constraint holds.
"""

import django.db.models.functions.text
from django.db import migrations, models


def unverify_shared_addresses(apps, schema_editor):
    User = apps.get_model("games", "User")
    kept = set()
    for user in User.objects.exclude(email="").order_by("date_joined", "pk"):
        key = user.email.casefold()
        if key in kept:
            user.pending_email, user.email = user.email, ""
            user.save(update_fields=["email", "pending_email"])
        else:
            kept.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0006_game_rematch_of"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="deleted_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="deleted"
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="pending_email",
            field=models.EmailField(
                blank=True, max_length=254, verbose_name="e-mail address to verify"
            ),
        ),
        migrations.RunPython(unverify_shared_addresses, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("email"),
                condition=models.Q(("email", ""), _negated=True),
                name="user_unique_verified_email",
            ),
        ),
    ]
