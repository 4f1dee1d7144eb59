"""Settings come from the environment; a bad value stops the process with a
message naming the variable, and production settings pass Django's deploy check."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-production-secret-key-for-the-check-0123456789",
    "ALLOWED_HOSTS": "memes.example.com",
}
POSTGRES = "postgres://memesite@127.0.0.1:5432/memesite"  # read, never connected to


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL")
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG must be true or false, not 'maybe'"),
        ({"DEBUG": "false"}, "SECRET_KEY must be set"),
        ({**PRODUCTION, "SECRET_KEY": "short"}, "SECRET_KEY must be at least 50 characters"),
        ({**PRODUCTION, "ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS must name"),
        ({"DATABASE_URL": "mongodb://localhost/memes"}, "DATABASE_URL"),
        (
            {"DATABASE_URL": POSTGRES, "DATABASE_PREPARED_STATEMENTS": "often"},
            "DATABASE_PREPARED_STATEMENTS must be true or false, not 'often'",
        ),
        (
            {"DATABASE_URL": POSTGRES, "DATABASE_PREPARE_THRESHOLD": "-1"},
            "DATABASE_PREPARE_THRESHOLD must be at least 0",
        ),
        ({"GENERATION_BATCH_SIZE": "lots"}, "GENERATION_BATCH_SIZE must be a whole number, not 'lots'"),
        ({"GENERATION_BATCH_SIZE": "0"}, "GENERATION_BATCH_SIZE must be at least 1"),
        ({"GENERATION_BATCH_SIZE": "65"}, "GENERATION_BATCH_SIZE must be at most 64"),
        ({"RENDER_FORMAT": "gif"}, "RENDER_FORMAT must be webp or jpeg"),
        ({"THROTTLE_REACTIONS": "120"}, "THROTTLE_REACTIONS must be uses per second, minute, hour or day"),
        ({"THROTTLE_FEED_SESSIONS": "0/hour"}, "THROTTLE_FEED_SESSIONS must be uses per second"),
        ({"THROTTLE_GENERATION": "10/week"}, "THROTTLE_GENERATION must be uses per second"),
        ({"SIGN_UP_ADDRESS_LIMIT_PER_HOUR": "0"}, "SIGN_UP_ADDRESS_LIMIT_PER_HOUR must be at least 1"),
        ({"LOGIN_LOG_DAYS": "0"}, "LOGIN_LOG_DAYS must be at least 1"),
        ({"TRUSTED_PROXIES": "10.0.0.1,proxy.local"}, "TRUSTED_PROXIES must list addresses, networks"),
    ],
)
def test_a_bad_value_stops_the_process_naming_the_variable(env: dict[str, str], message: str) -> None:
    result = run(["check"], **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr


def test_production_settings_pass_the_deploy_check() -> None:
    result = run(["check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stderr
