"""The admin index names every model as a curator would say it: "User
settings", not "User settingss"."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client


def test_the_admin_index_says_user_settings(client: Client, staff: User) -> None:
    client.force_login(staff)
    page = client.get("/admin/").content.decode()
    assert ">User settings<" in page
    assert "settingss" not in page.lower()
