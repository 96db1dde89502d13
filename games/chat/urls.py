from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/chat.json", views.chat_history, name="chat_history"),
]
