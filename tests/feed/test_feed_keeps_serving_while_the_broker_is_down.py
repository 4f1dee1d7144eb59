"""A reader running low while the broker is out of reach still gets the page:
the job is a row already, left queued for the sweeper to send once the broker
is back, instead of the page failing with the broker."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from kombu.exceptions import OperationalError

from generation.models import GenerationJob
from tests.conftest import PASSWORD, make_template
from tests.feed_data import bulk_memes


class BrokerDown:
    @staticmethod
    def delay(*args: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_a_reader_running_low_gets_the_page_while_the_broker_is_down(
    transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # transactional_db: the job's message is sent when its row commits, during the request.
    monkeypatch.setattr("generation.tasks.write_captions", BrokerDown())
    bulk_memes(make_template(), 5)
    alice = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    client = Client()
    client.force_login(alice)
    response = client.get("/api/feed/")
    assert response.status_code == 200 and len(response.json()["results"]) == 5
    assert GenerationJob.objects.get(requested_by=alice).status == GenerationJob.Status.QUEUED
