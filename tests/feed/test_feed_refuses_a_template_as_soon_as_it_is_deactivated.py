"""A template taken out of service is refused by the next feed that asks for
it, in every web process at once: template slugs are looked up per request,
not remembered per process (a remembered map served a deactivated template
for up to 30 s more)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from feed.models import Template
from tests.feed_data import bulk_memes


def test_a_deactivated_template_is_refused_on_the_next_request(
    client: Client, alice: User, template: Template
) -> None:
    bulk_memes(template, 5)
    client.force_login(alice)
    assert client.get(f"/api/feed/?template={template.slug}").status_code == 200
    Template.objects.filter(pk=template.pk).update(is_active=False)
    refused = client.get(f"/api/feed/?template={template.slug}")
    assert refused.status_code == 400
    assert refused.json()["template"] == [f"No active template is called {template.slug!r}."]
