from pathlib import Path

import pytest
from django.core.management import call_command

from feed.importer import import_templates
from feed.models import Template
from tests.template_folders import write_template_folder


@pytest.mark.django_db
def test_a_second_import_creates_nothing_and_changes_nothing(tmp_path: Path) -> None:
    write_template_folder(tmp_path, "success", name="Success Kid")
    write_template_folder(tmp_path, "drake", name="Drakeposting", boxes=2)

    first = import_templates(tmp_path)
    image_before = Template.objects.get(slug="drake").image.name
    second = import_templates(tmp_path)

    assert sorted(first.created) == ["drake", "success"]
    assert second.created == [] and second.updated == []
    assert sorted(second.unchanged) == ["drake", "success"]
    assert Template.objects.count() == 2
    assert Template.objects.get(slug="drake").image.name == image_before


@pytest.mark.django_db
def test_a_changed_config_updates_the_same_row(tmp_path: Path) -> None:
    write_template_folder(tmp_path, "success", name="Success Kid")
    import_templates(tmp_path)
    write_template_folder(tmp_path, "success", name="Success Kid (fist pump)")

    report = import_templates(tmp_path)

    assert report.updated == ["success"]
    assert Template.objects.get().name == "Success Kid (fist pump)"


@pytest.mark.django_db
def test_the_mapping_names_templates_for_the_caption_model_and_a_rerun_keeps_it(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    write_template_folder(templates, "success")
    mapping = tmp_path / "map.csv"
    mapping.write_text(
        "imgflip_slug,imgflip_template_id,memegen_key,captions_in_imgflip575k\nSuccess-Kid,1,success,yes\n"
    )

    call_command("import_templates", str(templates), "--mapping", str(mapping))
    call_command("import_templates", str(templates))

    assert Template.objects.get().model_key == "Success-Kid"


@pytest.mark.django_db
def test_images_are_normalised_on_the_way_in(tmp_path: Path) -> None:
    write_template_folder(tmp_path, "huge", image_size=(3000, 1500), image_format="PNG", mode="RGBA")

    import_templates(tmp_path)

    template = Template.objects.get()
    assert str(template.image.name).endswith(".jpg")
    assert (template.image.width, template.image.height) == (2000, 1000)
    assert len(template.image_sha256) == 64
