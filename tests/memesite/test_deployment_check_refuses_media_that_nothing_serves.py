"""`manage.py check --deploy` fails a configuration whose media on local disk
the site cannot serve (every image the API and pages name would be a 404),
and passes the production settings, which serve it."""

from tests.memesite.test_settings_fail_loudly_on_bad_values import PRODUCTION, run


def test_local_media_at_a_url_this_site_does_not_serve_fails_the_check() -> None:
    result = run(["check", "--deploy"], **PRODUCTION, MEDIA_URL="https://media.example.com/")
    assert result.returncode != 0
    assert "memesite.E001" in result.stderr and "https://media.example.com/" in result.stderr


def test_production_settings_serve_local_media_and_pass() -> None:
    result = run(["check", "--deploy"], **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "memesite.E001" not in result.stderr


def test_media_on_object_storage_is_the_buckets_to_serve() -> None:
    result = run(
        ["check", "--deploy"], **PRODUCTION, S3_BUCKET="memes", MEDIA_URL="https://media.example.com/"
    )
    assert result.returncode == 0, result.stderr
