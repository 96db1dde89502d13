"""A bot seat may carry its condottiere's name: a bot of a match keeps the name of the match's
first game instead of one drawn from each game's id."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_ratings_per_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='bot_name',
            field=models.CharField(blank=True, max_length=30, verbose_name="bot's name"),
        ),
    ]
