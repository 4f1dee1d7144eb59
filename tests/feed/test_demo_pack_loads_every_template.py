"""The demo pack is what a newcomer's site starts with: every template in it
loads, none skipped (a refused example caption would skip its whole template)."""

from pathlib import Path

import pytest
from django.conf import settings

from feed.importer import import_templates
from feed.models import Template


@pytest.mark.django_db
def test_every_demo_template_loads_and_none_is_skipped() -> None:
    pack = Path(settings.BASE_DIR) / "demo" / "templates"
    folders = sorted(path.name for path in pack.iterdir() if path.is_dir())

    report = import_templates(pack)

    assert report.skipped == []
    assert sorted(report.created) == folders
    assert Template.objects.count() == len(folders) == 20
