from django.contrib.auth import views as auth_views
from django.urls import path

from . import views, views_history, views_ratings, views_rules, views_tables
from .views_game import game as game_page
from .views_staff import staff_dashboard

urlpatterns = [
    path("", views.home, name="home"),
    # Accounts: Django's auth views with the project's templates.
    path("accounts/signup/", views.SignUpView.as_view(), name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", views.LogoutWithMessageView.as_view(), name="logout"),
    path(
        "accounts/password/change/",
        views.PasswordChangeWithMessageView.as_view(),
        name="password_change",
    ),
    path("accounts/profile/", views.own_profile, name="profile"),
    path("players/<str:username>/", views.player_profile, name="player"),
    # Pages that play.
    path("play/", views_tables.play_against_bots, name="play"),
    path("lobby/", views_tables.lobby_page, name="lobby"),
    path("history/", views_history.history, name="history"),
    # Live play, the lobby: tables, invitations, "Play now".
    path("tables/new/", views_tables.table_new, name="table_new"),
    path("tables/<int:game_id>/", views_tables.table_detail, name="table_detail"),
    path("tables/<int:game_id>/join/", views_tables.table_join, name="table_join"),
    path("tables/<int:game_id>/leave/", views_tables.table_leave, name="table_leave"),
    path("invite/<str:code>/", views_tables.invite, name="invite"),
    path("play/now/", views_tables.play_now, name="play_now"),
    # Live play, the board: the game page (players and spectators).
    path("games/<int:game_id>/", game_page, name="game"),
    # How to play, one whole page per language.
    path("rules/", views_rules.rules, name="rules"),
]

# Ratings: the public leaderboard of people and bot levels.
urlpatterns += [path("leaderboard/", views_ratings.leaderboard, name="leaderboard")]

# Staff: the dashboard (the admin is at /admin/).
urlpatterns += [path("staff/dashboard/", staff_dashboard, name="staff_dashboard")]

# History and replay: finished games re-simulated from seed + log; game records (JSON).
urlpatterns += [
    path("history/mine/", views_history.my_games, name="my_games"),
    path("games/import/", views_history.import_record_page, name="import_record"),
    path("games/<int:game_id>/replay/", views_history.replay, name="replay"),
    path("games/<int:game_id>/replay.json", views_history.replay_frames, name="replay_frames"),
    path("games/<int:game_id>/record.json", views_history.game_record, name="game_record"),
]
