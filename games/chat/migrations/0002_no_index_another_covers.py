"""No index of its own on a chat message's game or a mute's user: the index on (game, room,
created_at) and the unique (user, muted) begin with them (tests/web/test_indexes.py)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0001_table_talk"),
        ("games", "0011_no_index_a_unique_one_covers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="chatmessage",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="chat_messages",
                to="games.game",
                verbose_name="game",
            ),
        ),
        migrations.AlterField(
            model_name="chatmute",
            name="user",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="chat_mutes",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
