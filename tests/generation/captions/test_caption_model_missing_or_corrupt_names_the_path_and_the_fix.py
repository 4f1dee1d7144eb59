from pathlib import Path

import pytest

from generation.captions import CaptionError, CaptionModelMissing
from generation.captions.model import load_caption_model, save_model_dir
from generation.captions.tiny import tiny_caption_model


def test_a_missing_directory_says_where_it_looked_and_how_to_train(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(CaptionModelMissing) as caught:
        load_caption_model(missing)
    assert str(missing) in str(caught.value)
    assert "train_captions" in str(caught.value) and "CAPTION_MODEL_DIR" in str(caught.value)
    assert isinstance(caught.value, CaptionError)


def test_corrupt_weights_are_reported_as_a_missing_model(tmp_path: Path) -> None:
    tiny = tiny_caption_model()
    save_model_dir(tiny.model, tiny.tokenizer, tmp_path)
    (tmp_path / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(CaptionModelMissing, match=str(tmp_path)):
        load_caption_model(tmp_path, "cpu")


def test_a_saved_model_loads_on_cpu_with_a_version_from_its_weights(tmp_path: Path) -> None:
    tiny = tiny_caption_model()
    save_model_dir(tiny.model, tiny.tokenizer, tmp_path)
    model = load_caption_model(tmp_path, "auto")
    assert len(model.version) == 12
    assert model.knows("Bad-Luck-Brian")
