"""The template admin's box editor in Chromium, under the site's content
security policy: boxes drawn where the renderer draws them (turned ones too),
moved by dragging with a mouse or a finger (on a desktop and on a phone), resized by a corner handle, set up
beside the image, previewed by the real renderer, and saved as moved. On the
add page the image chosen stays in the editor after a form error."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from feed.importer import read_template_folder, save_template
from feed.models import Template
from generation.layout import TextBox
from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

DEMO = Path(settings.BASE_DIR) / "demo" / "templates"
DRAKE_WIDTH = 383  # pixels, demo/templates/drake/default.jpg
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture
def curator(transactional_db: None) -> User:
    return User.objects.create_superuser("alice", "alice@example.com", PASSWORD)


def demo_template(key: str) -> Template:
    save_template(read_template_folder(DEMO / key))
    return Template.objects.get(slug=key)


def signed_in_page(
    chromium: Any, live_server: Any, user: User, viewport: str = "desktop", **context: Any
) -> tuple[Any, list[str]]:
    """A tab signed in as ``user``, recording script errors, CSP reports and
    failed requests (but the favicon the admin does not have)."""
    if viewport == "phone":
        context = {"is_mobile": True, "has_touch": True, **context}
    browser_context = chromium.new_context(viewport=VIEWPORTS[viewport], base_url=live_server.url, **context)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser_context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    page = browser_context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: (
            problems.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.url}")
            if response.status >= 400 and not response.url.endswith("/favicon.ico")
            else None
        ),
    )
    return page, problems


def open_editor(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.querySelector('.box-editor-image')?.naturalWidth > 0")
    page.wait_for_selector(".box-editor-render:not([hidden]):not(.is-stale)", timeout=30_000)


def stage(page: Any) -> dict[str, float]:
    """The picture's place in the viewport, scrolled fully into view (pointers act only there)."""
    page.evaluate("document.querySelector('.box-editor-stage').scrollIntoView({block: 'center'})")
    box: dict[str, float] = page.locator(".box-editor-stage").bounding_box()
    return box


def centre_of(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, start: tuple[float, float], by: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 6):  # several moves, as a hand makes
        page.mouse.move(start[0] + by[0] * step / 5, start[1] + by[1] * step / 5)
    page.mouse.up()


def touch_drag(page: Any, start: tuple[float, float], by: tuple[float, float]) -> None:
    """A finger on the screen: Chromium's own touch input, turned into pointer events."""
    cdp = page.context.new_cdp_session(page)
    points = [(start[0] + by[0] * step / 5, start[1] + by[1] * step / 5) for step in range(6)]
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]}
    )
    for x, y in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def save(page: Any) -> None:
    page.click("input[name=_continue]")
    page.wait_for_selector(".messagelist .success")


def test_dragging_and_resizing_boxes_then_saving_stores_them_moved(
    chromium: Any, live_server: Any, curator: User
) -> None:
    template = demo_template("success")
    top, bottom = (TextBox(**box) for box in template.boxes)
    page, problems = signed_in_page(chromium, live_server, curator)
    open_editor(page, f"/admin/feed/template/{template.pk}/change/")
    frame = stage(page)

    # The bottom box dragged up by a tenth of the picture's height.
    drag(page, centre_of(page, ".box-editor-box >> nth=1"), (0, -0.1 * frame["height"]))
    # The top box's bottom-right corner dragged in by a fifth of the width: it
    # narrows, its left edge stays, and it stays inside the picture.
    corner = centre_of(page, ".box-editor-box >> nth=0 >> .handle-se")
    drag(page, corner, (-0.2 * frame["width"], 0.05 * frame["height"]))
    page.fill(".box-editor-settings >> nth=1 >> [data-setting=sample]", "and it saved the first time")
    page.wait_for_selector(".box-editor-render.is-stale", state="detached", timeout=30_000)
    screenshot(page.locator(".field-boxes"), "box-editor.png")
    save(page)

    template.refresh_from_db()
    saved_top, saved_bottom = (TextBox(**box) for box in template.boxes)
    assert saved_bottom.anchor_y == pytest.approx(bottom.anchor_y - 0.1, abs=0.01)
    assert (saved_bottom.anchor_x, saved_bottom.scale_x, saved_bottom.scale_y) == (0.0, 1.0, bottom.scale_y)
    assert saved_top.scale_x == pytest.approx(top.scale_x - 0.2, abs=0.01)
    assert saved_top.scale_y == pytest.approx(top.scale_y + 0.05, abs=0.01)
    assert (saved_top.anchor_x, saved_top.anchor_y) == (top.anchor_x, top.anchor_y)
    assert problems == []
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_finger_drags_a_box_and_the_settings_change_it(
    chromium: Any, live_server: Any, curator: User, viewport: str
) -> None:
    template = demo_template("success")
    page, problems = signed_in_page(chromium, live_server, curator, viewport, has_touch=True)
    open_editor(page, f"/admin/feed/template/{template.pk}/change/")
    frame = stage(page)
    width = VIEWPORTS[viewport]["width"]
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width, "the picture fits the screen"
    touch_drag(page, centre_of(page, ".box-editor-box >> nth=0"), (0, 0.3 * frame["height"]))

    settings_of_first = ".box-editor-settings >> nth=0"
    page.fill(f"{settings_of_first} >> [data-setting=color]", "yellow")
    page.press(f"{settings_of_first} >> [data-setting=color]", "Tab")
    page.select_option(f"{settings_of_first} >> [data-setting=font]", "comic")
    page.fill(f"{settings_of_first} >> [data-setting=angle]", "15")  # degrees
    page.press(f"{settings_of_first} >> [data-setting=angle]", "Tab")
    page.click("button:has-text('Add a box')")
    page.click(".box-editor-settings >> nth=1 >> button:has-text('Delete box')")  # the old bottom box goes
    page.wait_for_selector(".box-editor-render.is-stale", state="detached", timeout=30_000)
    save(page)

    template.refresh_from_db()
    first, added = (TextBox(**box) for box in template.boxes)
    assert first.anchor_y == pytest.approx(0.3, abs=0.02)
    assert (first.color, first.font, first.angle) == ("yellow", "comic", 15.0)
    assert added == TextBox(anchor_x=0.1, anchor_y=0.4, scale_x=0.8, scale_y=0.2)
    assert problems == []
    page.context.close()


def test_a_turned_box_is_outlined_where_the_renderer_draws_it(
    chromium: Any, live_server: Any, curator: User
) -> None:
    """memegen puts a turned box's turned outline at the anchor; the editor
    turns the outline about its own centre, so its centre must be TextBox.centre."""
    template = demo_template("success")
    turned = TextBox(anchor_x=0.1, anchor_y=0.2, scale_x=0.5, scale_y=0.2, angle=90)
    template.boxes = [turned.to_dict()]
    template.save()
    page, problems = signed_in_page(chromium, live_server, curator)
    open_editor(page, f"/admin/feed/template/{template.pk}/change/")
    frame = stage(page)
    x, y = centre_of(page, ".box-editor-box")
    # TextBox.centre scales with the picture: ask at 1000× the size shown, for whole pixels.
    want_x, want_y = (
        side / 1000 for side in turned.centre((round(frame["width"] * 1000), round(frame["height"] * 1000)))
    )
    assert x - frame["x"] == pytest.approx(want_x, abs=1.5) and y - frame["y"] == pytest.approx(
        want_y, abs=1.5
    )
    outline = page.locator(".box-editor-box").bounding_box()  # turned a quarter: tall, not wide
    assert outline["width"] == pytest.approx(0.2 * frame["height"], abs=3)
    assert outline["height"] == pytest.approx(0.5 * frame["width"], abs=3)
    assert math.isclose(turned.angle, 90) and problems == []
    page.context.close()


def test_on_the_add_page_the_chosen_image_stays_after_an_error(
    chromium: Any, live_server: Any, curator: User
) -> None:
    page, problems = signed_in_page(chromium, live_server, curator)
    page.goto("/admin/feed/template/add/")
    assert page.locator(".box-editor-empty").is_visible()
    page.set_input_files("input[name=image]", str(DEMO / "drake" / "default.jpg"))
    page.click("button:has-text('Add a box')")
    page.wait_for_selector(".box-editor-render:not([hidden]):not(.is-stale)", timeout=30_000)
    frame = stage(page)
    drag(page, centre_of(page, ".box-editor-box"), (0, -0.3 * frame["height"]))
    page.click("input[name=_save]")  # no name yet: the form comes back with an error

    page.wait_for_selector(".errornote")
    page.wait_for_function("() => document.querySelector('.box-editor-image')?.naturalWidth > 0")
    assert "/admin/feed/template/pending/" in page.get_attribute(".box-editor-image", "src")
    assert page.locator(".box-editor-box").count() == 1
    page.fill("input[name=name]", "Drake")  # the admin makes the slug from it
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success")

    template = Template.objects.get(slug="drake")
    (box,) = (TextBox(**raw) for raw in template.boxes)
    assert box.anchor_y == pytest.approx(0.1, abs=0.02)
    assert template.image.width == DRAKE_WIDTH  # the image chosen before the error
    assert problems == []
    page.context.close()
