"""The Bot API's endpoints (docs/bot-api.md) and the pages of bot accounts and their tokens."""

from django.urls import path

from . import api, views

urlpatterns = [
    path("api/bot/account", api.account, name="botapi_account"),
    path("api/bot/token/revoke", api.revoke_own_token, name="botapi_revoke_own_token"),
    path("api/bot/stream/event", api.event_stream, name="botapi_stream"),
    path("api/bot/challenge/<int:game_id>/accept", api.accept_challenge, name="botapi_accept"),
    path("api/bot/challenge/<int:game_id>/decline", api.decline_challenge, name="botapi_decline"),
    path("api/bot/table", api.open_table, name="botapi_open_table"),
    path("api/bot/table/<int:game_id>/join", api.join_table, name="botapi_join_table"),
    path("api/bot/game/<int:game_id>/move", api.move, name="botapi_move"),
    path("api/bot/game/<int:game_id>/state", api.state, name="botapi_state"),
    # Pages: the owner's profile section posts here.
    path("bots/new/", views.create_bot, name="botapi_create_bot"),
    path("bots/upgrade/", views.upgrade, name="botapi_upgrade"),
    path("bots/<str:username>/tokens/new/", views.create_token, name="botapi_create_token"),
    path("bots/tokens/<int:token_id>/revoke/", views.revoke_token, name="botapi_revoke_token"),
    path("bots/<str:username>/challenge/", views.challenge, name="botapi_challenge"),
]
