from collections.abc import Callable
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
def test_a_number_too_large_for_a_float_is_reported(folder: Path) -> None:
    # YAML reads 400 digits as one int; float() of it raised OverflowError and ended the import.
    write_template_folder(folder, "hugeangle", text=[{"angle": 10**400}])
    assert "Box 1: angle must be a finite number" in skipped_reason(folder, "hugeangle")


@pytest.mark.django_db
def test_a_number_past_pythons_4300_digits_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "digits") / "config.yml").write_text(
        f"name: D\ntext:\n- angle: {'9' * 5000}\n"
    )
    assert "not valid YAML" in skipped_reason(folder, "digits")


@pytest.mark.django_db
def test_a_colour_pillow_cannot_draw_is_reported(folder: Path) -> None:
    write_template_folder(folder, "badcolour", text=[{"color": f"rgb({10**24},0,0)"}])
    assert "color 'rgb(1000000000000000000000000,0,0)' is out of range" in skipped_reason(folder, "badcolour")


@pytest.mark.django_db
def test_a_config_nested_too_deep_is_reported(folder: Path) -> None:
    # PyYAML builds nested values by recursion: RecursionError ended the import.
    (write_template_folder(folder, "deep") / "config.yml").write_text(
        "name: " + "[" * 100_000 + "]" * 100_000
    )
    assert "nests deeper than 32 levels" in skipped_reason(folder, "deep")


def refused_for(locked: Path, read: Callable[..., Any]) -> Callable[..., Any]:
    """``read`` (a Path method) failing for ``locked`` as chmod 000 would: root runs CI and reads anything."""

    def refusing(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return read(path, *args, **kwargs)

    return refusing


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["config.yml", "default.jpg"])
def test_a_file_that_cannot_be_read_is_reported(folder: Path, name: str) -> None:
    locked = write_template_folder(folder, "locked") / name
    with (
        mock.patch.object(Path, "read_text", refused_for(locked, Path.read_text)),
        mock.patch.object(Path, "read_bytes", refused_for(locked, Path.read_bytes)),
    ):
        assert skipped_reason(folder, "locked") == f"{name} cannot be read: Permission denied"


@pytest.mark.django_db
def test_a_config_that_is_not_utf8_is_reported(folder: Path) -> None:
    (write_template_folder(folder, "latin1") / "config.yml").write_bytes("name: Caf\xe9\n".encode("latin-1"))
    assert (
        skipped_reason(folder, "latin1")
        == "config.yml is not UTF-8 text (invalid continuation byte at byte 9)"
    )


@pytest.mark.django_db
def test_a_nul_character_is_reported(folder: Path) -> None:
    # PostgreSQL refuses a NUL in text: model_key and credit reached the save and ended the import there.
    write_template_folder(folder, "nul", model_key="drake\0")
    assert skipped_reason(folder, "nul") == "model_key holds a NUL character"


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
