from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "games.matches"
    label = "matches"
