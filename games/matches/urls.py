from django.urls import path

from . import views

urlpatterns = [
    path("matches/", views.match_list, name="matches"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/match.json", views.match_json, name="match_json"),
    path("matches/<int:match_id>/ready/", views.ready, name="match_ready"),
    path("matches/<int:match_id>/record.json", views.record, name="match_record"),
    path("matches/of-game/<int:game_id>.json", views.match_of_game_json, name="match_of_game"),
    # The table forms post here when "Play for points" may be ticked (views.py says why).
    path("matches/tables/new/", views.table_new, name="match_table_new"),
    path("matches/play/", views.play_against_bots, name="match_play"),
]
