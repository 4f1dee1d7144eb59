from pathlib import Path

import pytest

from feed.importer import import_templates
from feed.models import Template
from tests.template_folders import write_template_folder


@pytest.mark.django_db
def test_the_mark_avoids_a_corner_with_text(tmp_path: Path) -> None:
    corner = [{"anchor_x": 0.6, "anchor_y": 0.8, "scale_x": 0.4, "scale_y": 0.2}]
    write_template_folder(tmp_path, "corner", text=corner)

    import_templates(tmp_path)

    assert Template.objects.get().mark_position != "bottom-right"


@pytest.mark.django_db
def test_a_config_may_place_the_mark_itself(tmp_path: Path) -> None:
    write_template_folder(tmp_path, "chosen", mark_position="top-left")

    import_templates(tmp_path)

    assert Template.objects.get().mark_position == "top-left"
