import json
from pathlib import Path

from generation.captions.config import CaptionConfig
from generation.captions.model import load_caption_model
from generation.captions.tiny import SAMPLE_MEMES
from lab.captions.config import TrainConfig
from lab.captions.data import write_memes

TINY = CaptionConfig(vocab_size=300, n_positions=64, n_embd=32, n_layer=1, n_head=2)


def train_for(tmp_path: Path, steps: int, out: str = "run", resume_from: str = "") -> Path:
    from lab.captions.train import train

    write_memes(tmp_path / "train", {k: v * 20 for k, v in SAMPLE_MEMES.items()})
    write_memes(tmp_path / "val", SAMPLE_MEMES)
    cfg = TrainConfig(
        data_dir=str(tmp_path / "train"),
        out_dir=str(tmp_path / out),
        resume_from=resume_from,
        max_steps=steps,
        block_size=32,
        batch_size=4,
        warmup_steps=1,
        threads=1,
        eval_captions=6,
    )
    return train(cfg, TINY, tmp_path / "val", log=lambda _: None)


def test_a_second_run_continues_from_the_checkpoint_instead_of_starting_over(tmp_path: Path) -> None:
    train_for(tmp_path, 3)
    final = train_for(tmp_path, 5)
    history = json.loads((final / "training_history.json").read_text())
    assert [row["step"] for row in history] == [3, 5]
    assert history[-1]["val_nats_per_char"] > 0


def test_the_finished_model_directory_loads_and_ships_its_curve_and_novelty_hashes(tmp_path: Path) -> None:
    final = train_for(tmp_path, 2)
    for name in (
        "config.json",
        "model.safetensors",
        "tokenizer.json",
        "loss_curve.png",
        "training_captions.npy",
    ):
        assert (final / name).is_file(), name
    model = load_caption_model(final, "cpu")
    assert model.knows("Drake-Hotline-Bling")
    assert model.filter.is_copy(["doing homework", "memes about homework"])


def test_a_run_goes_on_elsewhere_from_its_portable_checkpoint(tmp_path: Path) -> None:
    train_for(tmp_path, 3)
    portable = tmp_path / "run" / "portable"
    assert json.loads((portable / "training_state.json").read_text())["step"] == 3
    final = train_for(tmp_path, 5, out="elsewhere", resume_from=str(portable))
    history = json.loads((final / "training_history.json").read_text())
    assert [row["step"] for row in history] == [3, 5]  # the schedule went on from step 3
