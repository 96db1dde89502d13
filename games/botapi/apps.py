from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "games.botapi"
    label = "botapi"

    def ready(self):
        # Django's own way to connect signal receivers once the models are loaded.
        from games.botapi import deletion  # noqa: F401
