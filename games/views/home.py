"""The home page: what the game is, and the two ways into it."""

from django.shortcuts import render


def home(request):
    return render(request, "home.html")
