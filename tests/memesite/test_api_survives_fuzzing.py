"""Schemathesis fuzzes every operation of the served OpenAPI schema as an
anonymous visitor, a signed-in reader and staff: no answer is a server error,
and every answer's status code, content type and body are ones the schema
documents. Generation is derandomized, so CI sends the same requests each run."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from feed import models
from feed.models import Meme
from generation.models import GenerationJob
from memesite.wsgi import application
from tests.conftest import make_meme, make_template

EXAMPLES_PER_OPERATION = 25  # plus the coverage phase's boundary and malformed cases
MEME_IDS = range(1, 9)  # 1-6 ready, 7 hidden, 8 still being made
ALICE_JOB, STAFF_JOB = uuid.UUID(int=1), uuid.UUID(int=2)

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 1,
        "generation": {"max-examples": EXAMPLES_PER_OPERATION, "deterministic": True, "database": "none"},
    }
)
# The schema as gunicorn serves it, and the same WSGI application answers the fuzzer.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=CONFIG)

# No server error, and the answer's status code, content type and body as documented.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@schema.hook
def flatmap_path_parameters(
    context: Any, path_parameters: dict[str, Any] | None
) -> st.SearchStrategy[dict[str, Any] | None]:
    """Some generated ids are swapped for seeded ones: random integers and
    UUIDs would almost never name a meme or a request, and only reach the 404."""
    if path_parameters is None:
        return st.just(None)
    meme_id, job_id = path_parameters.get("meme_id"), path_parameters.get("job_id")
    if type(meme_id) is int:
        seeded = st.sampled_from(MEME_IDS).map(lambda id: {**path_parameters, "meme_id": id})
        return st.just(path_parameters) | seeded
    if isinstance(job_id, str):
        seeded = st.sampled_from([ALICE_JOB, STAFF_JOB]).map(
            lambda id: {**path_parameters, "job_id": str(id)}
        )
        return st.just(path_parameters) | seeded
    return st.just(path_parameters)


@pytest.fixture(autouse=True)
def connections_stay_open() -> Iterator[None]:
    """As in Django's test client: the end of a request closes the database
    connection, which would end the test's transaction and its seeded rows."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def limits_out_of_the_way(settings: Any) -> None:
    """Ten meme requests a minute (or sixty fresh feeds an hour) would turn every
    later request into a 429 that validates nothing; the limits have their own
    tests (429 stays documented).
    A fast password hasher, because each test signs up its cast."""
    settings.THROTTLE_GENERATION = "10000/minute"
    settings.THROTTLE_FEED_SESSIONS = "10000/minute"
    settings.THROTTLE_FEED_MEMES = "10000000/minute"
    settings.THROTTLE_GENERATION_HOURLY = "10000/hour"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def seeded(alice: User, staff: User, caption_model: Any) -> None:
    """Two templates, memes 1-8, a request each for alice and staff, and some of
    their reactions and favourites. The caption model is the fake one, though
    the test's transaction never commits, so no request's job is ever run."""
    success, drake = make_template("success"), make_template("drake", boxes=3)
    jobs = [
        GenerationJob.objects.create(
            id=ALICE_JOB, template=success, reason=GenerationJob.Reason.REQUEST, requested_by=alice, count=2
        ),
        GenerationJob.objects.create(
            id=STAFF_JOB,
            template=drake,
            reason=GenerationJob.Reason.REQUEST,
            requested_by=staff,
            status=GenerationJob.Status.FAILED,
            error="the caption model refused",
        ),
    ]
    make_meme(success, pk=1, image="memes/1.jpg", width=800, height=600, job=jobs[0])
    make_meme(success, ["", "only the bottom"], pk=2, job=jobs[0])
    for pk in (3, 4, 5, 6):
        make_meme(drake, ["one", "two", "three"], pk=pk)
    make_meme(success, pk=7, status=Meme.Status.HIDDEN)
    make_meme(drake, [], pk=8, status=Meme.Status.QUEUED)
    for reader in (alice, staff):
        models.set_reaction(1, reader, 1)
        models.set_reaction(3, reader, -1)
        models.set_favourite(1, reader, True)
        models.set_favourite(4, reader, True)


@pytest.fixture(params=["anonymous", "reader", "staff"])
def signed_in_as(request: Any, seeded: None, alice: User, staff: User) -> dict[str, str]:
    """Headers for the role. Readers use API tokens: a session would also need
    a CSRF token on every write. The anonymous role still sends the random
    credentials schemathesis generates for the documented security schemes."""
    user = {"anonymous": None, "reader": alice, "staff": staff}[request.param]
    if user is None:
        return {}
    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


@schema.parametrize()
# The fixtures are set up once per operation and role, not per example, on purpose
# (see below); "too slow" would only measure this shared 2-core machine.
@hypothesis.settings(
    suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture, hypothesis.HealthCheck.too_slow]
)
def test_every_answer_is_documented_and_none_is_a_server_error(
    case: Any, signed_in_as: dict[str, str]
) -> None:
    # The seeded rows and the throttles' counts carry over from example to
    # example within a test, as they would between a client's requests.
    response = case.call(headers=signed_in_as)
    case.validate_response(response, checks=CHECKS)
