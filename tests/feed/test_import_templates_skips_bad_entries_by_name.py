from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from feed.importer import TemplateImportError, import_templates
from feed.models import Template
from tests.template_folders import write_template_folder


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_template_folder(tmp_path, "good", name="Good")
    return tmp_path


def skipped_reason(folder: Path, key: str) -> str:
    report = import_templates(folder)
    assert report.created == ["good"], "the good template is imported beside the bad one"
    return dict(report.skipped)[key]


@pytest.mark.django_db
def test_a_missing_image_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "noimage") / "default.jpg").unlink()
    assert "no image" in skipped_reason(folder, "noimage")


@pytest.mark.django_db
def test_broken_yaml_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "broken") / "config.yml").write_text("name: [unclosed\n")
    assert "not valid YAML" in skipped_reason(folder, "broken")


@pytest.mark.django_db
def test_a_config_that_is_not_a_mapping_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "alist") / "config.yml").write_text("- one\n- two\n")
    assert "must be a mapping" in skipped_reason(folder, "alist")


@pytest.mark.django_db
def test_a_missing_config_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "noconfig") / "config.yml").unlink()
    assert "no config.yml" in skipped_reason(folder, "noconfig")


@pytest.mark.django_db
def test_a_text_file_with_an_image_name_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "fake") / "default.jpg").write_text("<html>not an image</html>")
    assert "not a supported image" in skipped_reason(folder, "fake")


@pytest.mark.django_db
def test_an_image_too_large_to_decode_is_reported(folder: Path) -> None:
    write_template_folder(folder, "bomb", image_size=(9000, 9000), image_format="PNG", mode="1")
    assert "too large" in skipped_reason(folder, "bomb")


@pytest.mark.django_db
def test_bad_boxes_are_reported(folder: Path) -> None:
    write_template_folder(folder, "badbox", text=[{"anchor_x": "left"}])
    assert "anchor_x must be a number" in skipped_reason(folder, "badbox")


@pytest.mark.django_db
def test_a_template_without_a_name_is_reported(folder: Path) -> None:
    write_template_folder(folder, "noname", name="")
    assert "no name" in skipped_reason(folder, "noname")


@pytest.mark.django_db
def test_a_failed_save_leaves_no_row_and_no_file(folder: Path, settings: Any) -> None:
    with (
        mock.patch.object(Template, "save", side_effect=RuntimeError("database went away")),
        pytest.raises(RuntimeError),
    ):
        import_templates(folder)
    assert not Template.objects.exists()
    assert not list((Path(settings.MEDIA_ROOT) / "templates").glob("*"))


@pytest.mark.django_db
def test_the_command_names_each_skipped_folder(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (write_template_folder(folder, "noimage") / "default.jpg").unlink()
    call_command("import_templates", str(folder))
    captured = capsys.readouterr()
    assert "skipped noimage: no image" in captured.err
    assert "1 created" in captured.out and "1 skipped" in captured.out


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TemplateImportError, match="not a folder"):
        import_templates(tmp_path / "nowhere")
    with pytest.raises(CommandError, match="not a folder"):
        call_command("import_templates", str(tmp_path / "nowhere"))
