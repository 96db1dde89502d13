from django.contrib.auth import views as auth_views
from django.urls import path

from .views import accounts, game, history, home, players, ratings, rules, staff, tables

urlpatterns = [
    path("", home.home, name="home"),
    # Accounts: Django's auth views with the project's templates.
    path("accounts/signup/", accounts.SignUpView.as_view(), name="signup"),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutWithMessageView.as_view(), name="logout"),
    path("accounts/logout/everywhere/", accounts.log_out_everywhere, name="log_out_everywhere"),
    path(
        "accounts/password/change/",
        accounts.PasswordChangeWithMessageView.as_view(),
        name="password_change",
    ),
    path("accounts/profile/", players.own_profile, name="profile"),
    # Accounts people can keep (docs/accounts.md): an e-mail address verified by a link,
    # password reset by mail (Django's views), and deleting one's account.
    path("accounts/email/", players.email_change, name="email_change"),
    path("accounts/email/resend/", players.email_resend, name="email_resend"),
    path("accounts/email/remove/", players.email_remove, name="email_remove"),
    path("accounts/email/verify/<str:token>/", accounts.verify_email, name="email_verify"),
    path("accounts/delete/", players.account_delete, name="account_delete"),
    path(
        "accounts/password/reset/",
        accounts.ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmRememberingDevice.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("players/<str:username>/", players.player_profile, name="player"),
    # Pages that play.
    path("play/", tables.play_against_bots, name="play"),
    path("lobby/", tables.lobby_page, name="lobby"),
    path("history/", history.history, name="history"),
    # Live play, the lobby: tables, invitations, "Play now".
    path("tables/new/", tables.table_new, name="table_new"),
    path("tables/<int:game_id>/", tables.table_detail, name="table_detail"),
    path("tables/<int:game_id>/join/", tables.table_join, name="table_join"),
    path("tables/<int:game_id>/leave/", tables.table_leave, name="table_leave"),
    path("invite/<str:code>/", tables.invite, name="invite"),
    path("play/now/", tables.play_now, name="play_now"),
    # Live play, the board: the game page (players and spectators).
    path("games/<int:game_id>/", game.game, name="game"),
    path("games/<int:game_id>/rematch/", game.rematch, name="rematch"),
    path("games/<int:game_id>/rematch/decline/", game.rematch_decline, name="rematch_decline"),
    # How to play, one whole page per language.
    path("rules/", rules.rules, name="rules"),
    path("rules/renaissance/", rules.rules_renaissance, name="rules_renaissance"),
]

# Ratings: the public leaderboard of people and bot levels.
urlpatterns += [path("leaderboard/", ratings.leaderboard, name="leaderboard")]

# Staff: the dashboard (the admin is at /admin/).
urlpatterns += [path("staff/dashboard/", staff.staff_dashboard, name="staff_dashboard")]

# History and replay: finished games re-simulated from seed + log; game records (JSON).
urlpatterns += [
    path("history/mine/", history.my_games, name="my_games"),
    path("games/import/", history.import_record_page, name="import_record"),
    path("games/<int:game_id>/replay/", history.replay, name="replay"),
    path("games/<int:game_id>/replay.json", history.replay_frames, name="replay_frames"),
    path("games/<int:game_id>/record.json", history.game_record, name="game_record"),
]
