"""No index of its own on the game of an action, a seat or a rating change: each table's unique
constraint begins with that column and serves every lookup by it, and every move wrote the
action's (tests/web/test_indexes.py)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_seat_bot_name"),
    ]

    operations = [
        migrations.AlterField(
            model_name="action",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="actions",
                to="games.game",
                verbose_name="game",
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_changes",
                to="games.game",
                verbose_name="game",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="games.game",
                verbose_name="game",
            ),
        ),
    ]
