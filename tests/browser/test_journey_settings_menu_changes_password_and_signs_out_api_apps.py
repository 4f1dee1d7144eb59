"""In Chromium: the settings menu's "Sign out API apps" revokes the reader's
API token (the browser stays signed in), and its "Change password" link leads
to the site's password page, where the change goes through."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from tests.browser.conftest import DESKTOP
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

NEW_PASSWORD = "a brand new staple battery"


def test_the_settings_menu_signs_out_api_apps_and_changes_the_password(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    Token.objects.create(user=alice)
    base = live_server.url
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")

    page.click("#settings-menu summary")
    with page.expect_response(lambda response: "/api/auth/token/" in response.url) as answer:
        page.click("#revoke-token")
    assert answer.value.status == 204
    page.wait_for_selector("#toast:not([hidden])")
    assert "signed out" in page.text_content("#settings-status")
    assert not Token.objects.filter(user=alice).exists()

    page.click("text=Change password")
    page.wait_for_url(f"{base}/accounts/password/")
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    page.click("main form button[type=submit]")  # the header's sign-out is a form too
    page.wait_for_url(f"{base}/accounts/password/changed/")
    page.goto(f"{base}/favourites/")
    assert page.url == f"{base}/favourites/"  # still signed in
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert errors == []
    context.close()
