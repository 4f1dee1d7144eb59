"""Script and markup in template names, alternative names and keywords, in
captions and meme keywords, and in a username are shown as text in Chromium on
every page that shows them: no script runs, no dialog opens, no element of a
payload exists in the page, and each payload reads back as the literal text.

The pages are loaded with the content security policy switched off: the CSP
would stop an injected handler from running, and this test is about the layer
under it, that nothing is ever interpreted as markup. (Every page carrying the
CSP is tested on its own.) tests/feed/test_pages_render_every_text_inert.py checks
the server's escaping; this checks what the browser builds, script-made cards
included."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from feed.models import Meme, Template, UserSettings, report, set_favourite
from tests.browser.conftest import DESKTOP, ready_meme
from tests.conftest import PASSWORD, make_template
from tests.feed_data import picture

pytestmark = pytest.mark.browser

IMG = "<img src=x onerror=window.__pwned=1>"
SCRIPT = "<script>window.__pwned=1</script>"
SVG = '"><svg onload=window.__pwned=1>'
DETAILS = "'><details open ontoggle=alert(1)>"  # opens a dialog if it ever runs
JS_URL = "javascript:window.__pwned=1"
PAYLOADS = (IMG, SCRIPT, SVG, DETAILS, JS_URL)

NAME = f"Drake {IMG} {SVG}"
USERNAME = f"eve{DETAILS}"  # past Django's username rules, as an imported account would be

# Whatever the payloads would make: an element with a handler, a script with
# no file, the broken image, a javascript: link or frame.
INJECTED = """() => {
  const found = [];
  for (const node of document.querySelectorAll("*")) {
    const attributes = Array.from(node.attributes);
    const handler = attributes.some((attribute) => attribute.name.startsWith("on"));
    const jsUrl = ["href", "src", "action", "formaction"].some((name) =>
      (node.getAttribute(name) || "").trim().toLowerCase().startsWith("javascript:"));
    const inlineScript = node.localName === "script" && !node.src && node.type !== "application/json";
    const brokenImage = node.localName === "img" && node.getAttribute("src") === "x";
    if (handler || jsUrl || inlineScript || brokenImage) {
      found.push(node.outerHTML.slice(0, 200));
    }
  }
  return found;
}"""

# Everything the page shows or holds as text: its text (as written, before CSS
# changes its case), the title, every attribute value and form values.
LITERAL_TEXT = """() => {
  const parts = [document.title, document.body.textContent];
  for (const node of document.querySelectorAll("*")) {
    for (const attribute of node.attributes) parts.push(attribute.value);
  }
  for (const field of document.querySelectorAll("input, textarea")) parts.push(field.value);
  return parts.join("\\n");
}"""


@dataclass(frozen=True)
class World:
    template: Template
    memes: list[Meme]
    curator: User


@pytest.fixture
def world(transactional_db: None, caption_model: Any) -> World:
    template = make_template(
        "hostile",
        name=NAME,
        model_key=IMG,  # the stand-in caption model writes it into every caption
        alternative_names=[SCRIPT, DETAILS],
        keywords=[JS_URL, IMG],
        source=JS_URL,
    )
    data = picture(600, 400, "steelblue", "meme")
    memes = [
        ready_meme(template, [SCRIPT, SVG], data, (600, 400), "memes/hostile.jpg"),
        ready_meme(template, [IMG, DETAILS], data, (600, 400), "memes/hostile.jpg"),
    ]
    Meme.objects.filter(pk=memes[0].pk).update(keywords=[JS_URL, SCRIPT])
    curator = User.objects.create_superuser(USERNAME, "eve@example.com", PASSWORD)
    UserSettings.objects.create(user=curator, howto_seen=True)
    for meme in memes:
        set_favourite(meme.pk, curator, True)
    report(memes[0].pk, curator, "other", SCRIPT)
    return World(template, memes, curator)


def open_page(chromium: Any, live_server: Any, user: User | None) -> tuple[Any, list[str]]:
    """A tab with the CSP off, signed in as ``user``, recording every dialog."""
    context = chromium.new_context(viewport=DESKTOP, bypass_csp=True, base_url=live_server.url)
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}
        context.add_cookies([cookie])
    page = context.new_page()
    dialogs: list[str] = []

    def record(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", record)
    return page, dialogs


def captions(world: World) -> list[str]:
    return [meme.caption for meme in world.memes]


# Each page: where it is, what to wait for, and the hostile texts it must show literally.
def feed(page: Any, world: World) -> list[str]:
    page.goto("/")
    page.locator(".card").nth(1).wait_for()
    return [NAME, *captions(world)]


def favourites(page: Any, world: World) -> list[str]:
    page.goto("/favourites/")
    page.locator(".card").nth(1).wait_for()
    return [NAME, *captions(world)]


def permalink(page: Any, world: World) -> list[str]:
    page.goto(f"/m/{world.memes[0].pk}/")
    return [NAME, captions(world)[0]]


def make(page: Any, world: World) -> list[str]:
    """The template picker, a refused keyword echoed back, and the variants made."""
    page.goto("/make/")
    page.fill("#make-keywords", SCRIPT)  # over 30 characters: refused, and quoted in the refusal
    page.click("#make-submit")
    page.wait_for_selector("#make-status:has-text('30 characters')")
    assert SCRIPT in page.inner_text("#make-status")
    page.select_option("#make-template", "hostile")
    page.fill("#make-keywords", "")
    page.click("#make-submit")
    page.locator(".make-card img").nth(3).wait_for(timeout=30000)
    made = Meme.objects.filter(job__isnull=False).order_by("pk")
    assert made.count() == 4 and all(IMG in meme.caption for meme in made)
    return [NAME, *(meme.caption for meme in made)]


def insights(page: Any, world: World) -> list[str]:
    page.goto("/insights/")
    return [NAME]


def template_list(page: Any, world: World) -> list[str]:
    page.goto("/admin/feed/template/")
    return [NAME]


def template_change(page: Any, world: World) -> list[str]:
    page.goto(f"/admin/feed/template/{world.template.pk}/change/")
    page.locator(".box-editor-box").nth(1).wait_for()  # the box editor is built
    return [NAME, JS_URL, f"{SCRIPT}\n{DETAILS}", f"{JS_URL}, {IMG}"]


def meme_list(page: Any, world: World) -> list[str]:
    page.goto("/admin/feed/meme/")
    return captions(world)


def meme_change(page: Any, world: World) -> list[str]:
    page.goto(f"/admin/feed/meme/{world.memes[0].pk}/change/")
    return [NAME, json.dumps([SCRIPT, SVG], ensure_ascii=False), json.dumps([JS_URL, SCRIPT])]


def report_list(page: Any, world: World) -> list[str]:
    page.goto("/admin/feed/report/")
    return [USERNAME, captions(world)[0]]


def user_list(page: Any, world: World) -> list[str]:
    page.goto("/admin/auth/user/")
    return [USERNAME]


PAGES = {
    "feed": feed,
    "favourites": favourites,
    "permalink": permalink,
    "make a meme": make,
    "insights": insights,
    "admin templates": template_list,
    "admin template": template_change,
    "admin memes": meme_list,
    "admin meme": meme_change,
    "admin reports": report_list,
    "admin users": user_list,
}


def assert_inert(page: Any, dialogs: list[str], shown: list[str]) -> None:
    assert page.evaluate("() => typeof window.__pwned") == "undefined"
    assert dialogs == []
    assert page.evaluate(INJECTED) == []
    text = page.evaluate(LITERAL_TEXT)
    assert [literal for literal in shown if literal not in text] == []


@pytest.mark.parametrize("name", list(PAGES))
def test_hostile_text_is_shown_as_text(chromium: Any, live_server: Any, world: World, name: str) -> None:
    page, dialogs = open_page(chromium, live_server, world.curator)
    shown = PAGES[name](page, world)
    assert_inert(page, dialogs, [*shown, USERNAME])  # the username: "signed in as" on every page
    page.context.close()


def test_sign_up_refuses_a_username_with_markup_and_echoes_it_as_text(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    page, dialogs = open_page(chromium, live_server, None)
    page.goto("/accounts/signup/")
    page.fill("#id_username", SVG)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".errorlist")
    assert "Enter a valid username" in page.inner_text(".errorlist")
    assert page.input_value("#id_username") == SVG
    assert not User.objects.exists()
    assert_inert(page, dialogs, [SVG])
    page.context.close()


def test_a_visitor_sees_hostile_text_on_the_landing_page_as_text(
    chromium: Any, live_server: Any, world: World
) -> None:
    page, dialogs = open_page(chromium, live_server, None)
    page.goto("/")
    page.locator(".landing-card img").first.wait_for()
    # The reported meme stays off the page strangers see; the other one is shown.
    assert page.locator(".landing-card").count() == 1
    assert_inert(page, dialogs, [NAME, captions(world)[1]])
    page.context.close()
