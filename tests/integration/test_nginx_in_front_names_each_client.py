"""The README's nginx block, run verbatim in Debian's nginx in front of the
site as production runs it: each client is counted at its own address, so a
header the client forges changes nothing and one client's failed sign-ins lock
out no one else; a proxy that names no client is refused, not believed.

Clients are told apart by the loopback address they connect from (127.0.0.2,
127.0.0.3, ...), which nginx sees as ``$remote_addr``."""

from __future__ import annotations

import http.client
import json
import re
import secrets
import shutil
import ssl
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User

from tests.integration.conftest import ROOT, Site
from tests.servers import free_port, wait_for_port

pytestmark = pytest.mark.integration

ALICE_AT_HOME, ATTACKER, FORGER, NEIGHBOUR = "127.0.0.5", "127.0.0.4", "127.0.0.2", "127.0.0.3"
PASSWORD = "correct horse battery staple"
LIMITS = {
    "TRUSTED_PROXIES": "127.0.0.1",
    "THROTTLE_SIGN_UP": "3/hour",
    "LOGIN_FAILURE_LIMIT": "3",
    "LOGIN_ADDRESS_FAILURE_LIMIT": "4",
}


def readme_nginx_block() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert len(blocks) == 1, "the README holds one nginx block"
    return str(blocks[0])


def replaced(text: str, pattern: str, replacement: str) -> str:
    new, count = re.subn(pattern, replacement, text)
    assert count == 1, f"the README's nginx block has no single {pattern!r}"
    return new


def served_block(block: str, port: int, site: Site, certificate: Path, key: Path) -> str:
    """The README's block, listening on a free loopback port with a throwaway
    certificate and passing to the site under test."""
    block = replaced(block, r"listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    block = replaced(block, r"ssl_certificate +\S+;", f"ssl_certificate {certificate};")
    block = replaced(block, r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};")
    return replaced(
        block, r"proxy_pass http://127\.0\.0\.1:8000;", f"proxy_pass http://{site.host}:{site.port};"
    )


def nginx_conf(server_block: str, folder: Path) -> str:
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp_paths = "".join(f"    {kind}_temp_path {folder / kind};\n" for kind in kinds)
    return (
        "user root root;\nworker_processes 1;\n"
        f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        "events {}\nhttp {\n"
        f"    access_log {folder / 'access.log'};\n{temp_paths}{server_block}}}\n"
    )


@dataclass(frozen=True)
class Proxy:
    port: int

    def ask(
        self, client: str, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
    ) -> http.client.HTTPResponse:
        """A request from the loopback address ``client``, answered in full."""
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # a throwaway certificate
        connection = http.client.HTTPSConnection(
            "127.0.0.1", self.port, source_address=(client, 0), context=context, timeout=30
        )
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        response.read()  # kept on the response for the caller
        connection.close()
        return response

    def sign_up(self, client: str, forged: str) -> int:
        """Sign up a new account through the page, as a browser would, sending
        its own X-Forwarded-For."""
        page = self.ask(client, "GET", "/accounts/signup/", headers={"X-Forwarded-For": forged})
        cookies = SimpleCookie()
        for header in page.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
        assert page.status == 200 and "csrftoken" in cookies, (page.status, page.headers)
        token = cookies["csrftoken"].value
        password = secrets.token_urlsafe(16)
        form = f"username=reader{secrets.token_hex(4)}&password1={password}&password2={password}"
        answer = self.ask(
            client,
            "POST",
            "/accounts/signup/",
            form,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={token}",
                "X-CSRFToken": token,
                "Origin": "https://127.0.0.1",  # nginx passes the host without its port
                "X-Forwarded-For": forged,
            },
        )
        return answer.status

    def sign_in(self, client: str, username: str, password: str, forged: str = "") -> int:
        credentials = json.dumps({"username": username, "password": password})
        headers = {"Content-Type": "application/json"}
        if forged:
            headers["X-Forwarded-For"] = forged
        return self.ask(client, "POST", "/api/auth/token/", credentials, headers).status


@pytest.fixture
def start_nginx(tmp_path: Path) -> Iterator[Callable[[Site, str], Proxy]]:
    """start(site, server_block) runs nginx with that block in front of the site."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx not found: apt-get install nginx-light")
    certificate, key = tmp_path / "proxy.crt", tmp_path / "proxy.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )  # fmt: skip
    started: list[Path] = []

    def start(site: Site, block: str) -> Proxy:
        port = free_port()
        folder = tmp_path / f"nginx-{len(started)}"
        folder.mkdir()
        conf = folder / "nginx.conf"
        conf.write_text(nginx_conf(served_block(block, port, site, certificate, key), folder))
        subprocess.run(
            [nginx, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)],
            check=True, capture_output=True,
        )  # fmt: skip
        started.append(folder)
        wait_for_port(port)
        return Proxy(port)

    yield start
    for folder in started:
        subprocess.run(
            [nginx, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(folder / "nginx.conf"),
             "-s", "stop"],
            check=False, capture_output=True,
        )  # fmt: skip


def test_a_client_forging_x_forwarded_for_is_counted_at_its_own_address(
    start_site: Callable[..., Site], start_nginx: Callable[[Site, str], Proxy], production_env: dict[str, str]
) -> None:
    # The sign-up page names its static files, as `bin/serve setup` collects them.
    collect = [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"]
    env = {**production_env, "DEBUG": "false"}
    subprocess.run(collect, cwd=ROOT, env=env, check=True, capture_output=True)
    site = start_site(LIMITS)
    proxy = start_nginx(site, readme_nginx_block())
    answers = [proxy.sign_up(FORGER, forged=f"203.0.113.{number}") for number in range(4)]
    assert answers == [302, 302, 302, 429]  # three an hour from one address, whatever it claims
    assert proxy.sign_up(NEIGHBOUR, forged=FORGER) == 302  # another client is not held to its count


def test_one_clients_failed_sign_ins_lock_out_no_one_else(
    transactional_db: None, start_site: Callable[..., Site], start_nginx: Callable[[Site, str], Proxy]
) -> None:
    # A hash of few rounds: the site checks it as it was made, at once.
    User.objects.create(username="alice", password=PBKDF2PasswordHasher().encode(PASSWORD, "salt", 1000))
    site = start_site(LIMITS)
    proxy = start_nginx(site, readme_nginx_block())
    failures = [proxy.sign_in(ATTACKER, f"reader{n}", "guess", forged=ALICE_AT_HOME) for n in range(4)]
    assert failures == [400, 400, 400, 429]  # the fourth failure from one address locks it
    assert proxy.sign_in(ATTACKER, "alice", PASSWORD, forged=ALICE_AT_HOME) == 429  # his address is locked
    assert proxy.sign_in(ALICE_AT_HOME, "alice", PASSWORD) == 200  # hers is not
    assert proxy.sign_in(NEIGHBOUR, "alice", PASSWORD) == 200


def test_a_proxy_that_names_no_client_is_refused_with_the_fix_in_the_log(
    start_site: Callable[..., Site], start_nginx: Callable[[Site, str], Proxy], tmp_path: Path
) -> None:
    site = start_site(LIMITS)
    without_the_header = readme_nginx_block().replace("proxy_set_header X-Forwarded-For $remote_addr;", "")
    proxy = start_nginx(site, without_the_header)
    assert proxy.ask(ATTACKER, "GET", "/accounts/login/").status == 500
    assert proxy.sign_in(ATTACKER, "alice", "guess") == 500
    log = (tmp_path / "gunicorn-0.log").read_text()
    assert "without X-Forwarded-For" in log and "proxy_set_header X-Forwarded-For $remote_addr" in log
