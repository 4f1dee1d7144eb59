"""The product's settings with the lab's commands: ``DJANGO_SETTINGS_MODULE=lab.settings``.

Everything is read from the environment as ``memesite.settings`` reads it (the database, the
caption model, the candidates); the one difference is the ``lab`` app, whose management commands
(prepare_captions, train_captions, evaluate_captions, judge_captions, train_moderation) the site
itself never lists, so a web or worker process never imports them or their libraries.
"""

from memesite import settings as product
from memesite.settings import *  # noqa: F403  (this module is the product's settings, plus the lab)

INSTALLED_APPS = [*product.INSTALLED_APPS, "lab"]
