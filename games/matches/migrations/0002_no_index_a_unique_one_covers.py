"""No index of its own on a match game's match: the unique (match, number) begins with it
(tests/web/test_indexes.py)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchgame",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entries",
                to="matches.match",
                verbose_name="match",
            ),
        ),
    ]
