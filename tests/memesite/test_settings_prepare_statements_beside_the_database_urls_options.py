"""On PostgreSQL the site prepares the statements a connection runs often
(psycopg 3, values bound on the server), keeping whatever options the
database URL carries; DATABASE_PREPARED_STATEMENTS=false turns it off."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
URL = "postgres://memesite@127.0.0.1:5432/memesite?sslmode=require"  # read, never connected to
SHOW = (
    "import os, json; os.environ['DJANGO_SETTINGS_MODULE'] = 'memesite.settings';"
    "from django.conf import settings; print(json.dumps(settings.DATABASES['default']['OPTIONS']))"
)


def options(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    command, environment = [sys.executable, "-c", SHOW], {**clean, **env}
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, check=True)
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_statements_are_prepared_beside_the_urls_own_options() -> None:
    assert options(DATABASE_URL=URL) == {
        "sslmode": "require",
        "server_side_binding": True,
        "prepare_threshold": 5,
    }


def test_prepared_statements_can_be_turned_off_for_a_pooler() -> None:
    assert options(DATABASE_URL=URL, DATABASE_PREPARED_STATEMENTS="false") == {"sslmode": "require"}
