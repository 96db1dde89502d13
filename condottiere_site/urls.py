from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("games.matches.urls")),
    path("", include("games.chat.urls")),
    path("", include("games.botapi.urls")),
    path("", include("games.analysis.urls")),
]
