from django.apps import AppConfig


class BotApiConfig(AppConfig):
    name = "games.botapi"
    label = "botapi"
