"""train_caption_discriminator says plainly what is wrong before it samples anything."""

from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def test_too_few_samples_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="-n must be at least 100"):
        call_command("train_caption_discriminator", "--data", str(tmp_path), "-n", "5")


def test_a_folder_without_prepared_captions_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="run prepare_captions first"):
        call_command("train_caption_discriminator", "--data", str(tmp_path))
