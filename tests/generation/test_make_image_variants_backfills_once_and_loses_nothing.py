"""``manage.py make_image_variants`` gives memes made before copies existed
their lighter WebP copies and lists them on their rows; a second run, or two
runs at once, change nothing more; a meme whose image is missing or damaged is
named with the reason, keeps its image and its row as they were, and the
others still get their copies."""

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from feed.models import Meme, Template
from generation.render.variants import variant_name
from generation.variants import make_variants, memes_without_variants
from tests.feed_data import pictured_meme
from tests.parallel import all_at_once


@pytest.fixture
def old_memes(template: Template) -> list[Meme]:
    """Ready memes with images but no copies, as rendered before copies existed."""
    return [
        pictured_meme(template, [f"meme {n}", "bottom"], colour) for n, colour in enumerate(("teal", "olive"))
    ]


def copy_paths(meme: Meme, media: Path) -> list[Path]:
    return [media / variant_name(str(meme.image.name), width) for width in (600, 800)]


def snapshot(media: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in media.rglob("*")
        if path.is_file()
    }


def test_memes_without_copies_get_them_listed_on_their_rows(
    old_memes: list[Meme], media_in_tmp: Path
) -> None:
    call_command("make_image_variants", verbosity=0)

    for meme in old_memes:
        meme.refresh_from_db()
        assert meme.image_variants == [600, 800]
        assert all(path.is_file() for path in copy_paths(meme, media_in_tmp))


def test_a_second_run_finds_nothing_to_do_and_touches_no_file(
    old_memes: list[Meme], media_in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("make_image_variants")
    files = snapshot(media_in_tmp)
    capsys.readouterr()

    call_command("make_image_variants")

    assert "copies made or found for 0 memes; 0 failed" in capsys.readouterr().out
    assert snapshot(media_in_tmp) == files
    assert memes_without_variants() == []


def test_a_re_check_of_every_meme_restores_a_lost_copy(old_memes: list[Meme], media_in_tmp: Path) -> None:
    call_command("make_image_variants")
    lost = copy_paths(old_memes[0], media_in_tmp)[0]
    before = lost.read_bytes()
    lost.unlink()

    call_command("make_image_variants", "--all")

    assert lost.read_bytes() == before


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_store_each_copy_once_and_whole(old_memes: list[Meme], media_in_tmp: Path) -> None:
    ids = [meme.pk for meme in old_memes]

    results = all_at_once([lambda: make_variants(ids) for _ in range(4)])

    assert [result.made for result in results] == [2, 2, 2, 2]
    webp = sorted(path.name for path in media_in_tmp.rglob("*.webp"))
    assert len(webp) == 4, webp
    assert not [path for path in media_in_tmp.rglob("*") if ".partial-" in path.name]
    assert list(Meme.objects.order_by("pk").values_list("image_variants", flat=True)) == [[600, 800]] * 2


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda path: path.unlink(), "is missing"),
        (lambda path: path.write_bytes(path.read_bytes()[:300]), "damaged or truncated"),
        (lambda path: path.write_bytes(b"not an image at all"), "cannot be read"),
    ],
    ids=["missing", "truncated", "not-an-image"],
)
def test_a_missing_or_damaged_image_is_named_and_the_others_still_get_copies(
    old_memes: list[Meme],
    media_in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    damage: object,
    reason: str,
) -> None:
    broken, whole = old_memes
    broken_path = Path(broken.image.path)
    damage(broken_path)  # type: ignore[operator]
    left = broken_path.read_bytes() if broken_path.exists() else None

    with pytest.raises(CommandError, match="1 memes have no copies"):
        call_command("make_image_variants")

    error = capsys.readouterr().err
    assert (
        f"meme {broken.pk}: no copies made:" in error and reason in error and str(broken.image.name) in error
    )
    assert (broken_path.read_bytes() if broken_path.exists() else None) == left
    assert not any(path.exists() for path in copy_paths(broken, media_in_tmp))
    broken.refresh_from_db()
    whole.refresh_from_db()
    assert (broken.image_variants, whole.image_variants) == (None, [600, 800])
    assert memes_without_variants() == [broken.pk], "the next run tries it again"
