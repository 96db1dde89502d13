"""The home page, the base layout every page shares, the language switcher and the palette."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "site.css"


def html_lang(response) -> str:
    return re.search(r'<html[^>]*\blang="([^"]+)"', response.content.decode()).group(1)


def test_the_home_page_explains_the_game_and_leads_to_play_and_the_lobby(client):
    response = client.get(reverse("home"))
    html = response.content.decode()

    assert response.status_code == 200
    assert re.search(rf'<a[^>]*href="{reverse("play")}"[^>]*>\s*Play against bots\s*<', html)
    assert re.search(rf'<a[^>]*href="{reverse("lobby")}"[^>]*data-testid="cta-lobby"', html)
    # The victory condition, for both table sizes.
    assert "five" in html and "three adjacent" in html
    assert "six" in html and "four" in html


def test_the_layout_has_landmarks_a_skip_link_and_the_stylesheet(client):
    html = client.get(reverse("home")).content.decode()

    assert '<a class="skip-link" href="#main">' in html
    assert '<main id="main"' in html
    assert "<header" in html and "<footer" in html
    assert re.search(r'<nav[^>]*aria-label="Main"', html)
    assert 'name="viewport"' in html
    assert "css/site.css" in html
    assert re.search(r'<button[^>]*aria-controls="site-menu"[^>]*aria-expanded="false"', html)


def test_the_base_layout_shows_messages(client):
    """A message added by one request is shown on the next page, whatever it is."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="sforza", password="x-Long-pass-1")
    client.force_login(user)
    response = client.post(reverse("logout"), follow=True)
    assert re.search(r'class="messages"[^>]*role="status"', response.content.decode())


def test_english_is_the_default_language(client):
    assert html_lang(client.get(reverse("home"))) == "en"


def test_a_french_browser_gets_a_french_page(client):
    response = client.get(reverse("home"), headers={"accept-language": "fr"})
    assert html_lang(response) == "fr"


def test_the_language_switcher_sets_the_cookie_and_the_page_language(client):
    page = client.get(reverse("home")).content.decode()
    form = re.search(rf'<form[^>]*action="{reverse("set_language")}".*?</form>', page, re.S)
    assert form and 'method="post"' in form.group(0)
    for code in ("en", "fr", "it"):
        assert f'value="{code}"' in form.group(0)

    response = client.post(reverse("set_language"), {"language": "it", "next": reverse("home")})

    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    assert html_lang(client.get(reverse("home"))) == "it"


def seat_colours() -> dict[int, str]:
    css = STYLESHEET.read_text()
    return {int(n): colour for n, colour in re.findall(r"--seat-(\d):\s*(#[0-9a-fA-F]{6})", css)}


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted([relative_luminance(a), relative_luminance(b)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_six_seat_colours_are_defined_and_readable_on_parchment():
    css = STYLESHEET.read_text()
    parchment = re.search(r"--parchment:\s*(#[0-9a-fA-F]{6})", css).group(1)
    colours = seat_colours()

    assert sorted(colours) == [0, 1, 2, 3, 4, 5]
    assert len(set(colours.values())) == 6
    for seat, colour in colours.items():
        # WCAG AA for normal text: the board writes names and counts in these colours.
        assert contrast(colour, parchment) >= 4.5, f"seat {seat} ({colour}) on {parchment}"
        assert contrast(colour, "#ffffff") >= 4.5, f"white text on seat {seat} ({colour})"


def test_the_stylesheet_downloads_no_web_font():
    css = STYLESHEET.read_text()
    assert "@font-face" not in css and "@import" not in css
