from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.request_view, name="analysis_request"),
    path("games/<int:game_id>/analysis.json", views.analysis_json, name="analysis_json"),
    path("games/<int:game_id>/hint/", views.hint_view, name="analysis_hint"),
    path(
        "games/<int:game_id>/hint/<str:token>/", views.hint_answer_view, name="analysis_hint_answer"
    ),
]
