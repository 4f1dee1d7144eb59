"""What serving images through the site costs, printed (not a test).

    python -m tests.servers .venv/bin/python bench/media.py [--seconds 10] [--clients 8]

Renders one meme on a throwaway PostgreSQL (tests.servers starts one), runs
the site as production does (`bin/serve web`, 2 sync workers, DEBUG off) and
asks it, from client threads in this process, for the meme's image (the media
view: one indexed query, then the file streamed from disk) and for the meme's
API item, each for --seconds; prints requests/s and p50/p95 latency. The
clients share the machine's cores with the server, so the figures are a floor.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memesite.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")
MEDIA = Path(tempfile.mkdtemp(prefix="memesite-bench-media-"))
os.environ["MEDIA_ROOT"] = str(MEDIA)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from feed.models import Meme  # noqa: E402
from generation import jobs  # noqa: E402
from tests.conftest import make_meme, make_template  # noqa: E402
from tests.servers import free_port, wait_for_port  # noqa: E402


def rendered_meme() -> Meme:
    meme = make_meme(make_template("bench-media"), ["one does not simply", "serve media"], status="queued")
    jobs.render_memes([meme.pk])
    meme.refresh_from_db()
    return meme


def load(port: int, path: str, seconds: float, clients: int) -> tuple[float, float, float]:
    """(requests/s, p50 ms, p95 ms) of GET path from ``clients`` threads."""
    latencies: list[float] = []
    failures: list[int] = []
    stop_at = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            connection.close()
            latencies.append(time.perf_counter() - started)
            if response.status != 200:
                failures.append(response.status)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"{path}: {len(failures)} answers were not 200 (first: {failures[0]})")
    quantiles = statistics.quantiles(latencies, n=20)
    return len(latencies) / seconds, quantiles[9] * 1000, quantiles[18] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("needs PostgreSQL: python -m tests.servers .venv/bin/python bench/media.py")
    call_command("migrate", verbosity=0)
    meme = rendered_meme()
    port = free_port()
    env = {
        **os.environ,
        "MEMESITE_PYTHON": sys.executable,
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "PORT": str(port),
        "WEB_WORKERS": "2",
    }
    server = subprocess.Popen(
        [ROOT / "bin" / "serve", "web"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_port(port, seconds=30)
        size = (MEDIA / str(meme.image.name)).stat().st_size
        for label, path in (
            (f"meme image ({size / 1000:.0f} kB JPEG)", f"/media/{meme.image.name}"),
            ("meme API item (JSON)", f"/api/memes/{meme.pk}/"),
        ):
            load(port, path, 1, args.clients)  # warm up both workers
            rate, p50, p95 = load(port, path, args.seconds, args.clients)
            print(f"{label:32} {rate:7.0f} req/s   p50 {p50:5.1f} ms   p95 {p95:5.1f} ms", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(MEDIA, ignore_errors=True)


if __name__ == "__main__":
    main()
