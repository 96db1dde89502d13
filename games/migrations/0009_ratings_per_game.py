"""Ratings per game: a Rating belongs to one game (`ruleset`), one per (person, game) and one per
(bot level, game). Every rating made before is Condottiere's, the only game rated until now."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def ratings_so_far_are_condottieres(apps, schema_editor):
    apps.get_model("games", "Rating").objects.update(ruleset="condottiere")
    checks_now(schema_editor)


def keep_only_condottieres(apps, schema_editor):
    """Back to one rating per person: the other games' ratings (and their changes) go."""
    apps.get_model("games", "Rating").objects.exclude(ruleset="condottiere").delete()
    checks_now(schema_editor)


def checks_now(schema_editor):
    """PostgreSQL refuses to alter a table with deferred foreign-key checks still pending in
    the transaction: run them now, before the next step alters the table."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_ruleset_and_seat_decisions"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="rating",
            name="rating_one_per_bot_level",
        ),
        migrations.AddField(
            model_name="rating",
            name="ruleset",
            field=models.CharField(
                choices=[("condottiere", "Condottiere"), ("renaissance", "Renaissance")],
                db_index=True,
                default="condottiere",
                max_length=16,
                verbose_name="game",
            ),
        ),
        migrations.AlterField(
            model_name="rating",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to=settings.AUTH_USER_MODEL,
                verbose_name="player",
            ),
        ),
        migrations.RunPython(ratings_so_far_are_condottieres, keep_only_condottieres),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("user", "ruleset"),
                name="rating_one_per_user_and_game",
            ),
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", True)),
                fields=("bot_level", "ruleset"),
                name="rating_one_per_bot_level_and_game",
            ),
        ),
    ]
