from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .views_game import game as game_page

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
    # Pages that play: placeholders until live play replaces their views (keep the names).
    path("play/", views.play, name="play"),
    path("lobby/", views.lobby, name="lobby"),
    path("history/", views.history, name="history"),
    # Live play, the board: the game page (players and spectators).
    path("games/<int:game_id>/", game_page, name="game"),
]
