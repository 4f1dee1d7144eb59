from django.apps import AppConfig


class MemesiteConfig(AppConfig):
    """The site's own mechanisms under both apps: the one table they need is the
    limiter's buckets (memesite/models.py)."""

    name = "memesite"
    verbose_name = "Site"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Checks register on import, which needs the app registry (Django's way).
        from django.core import checks

        from memesite.limits import limits_under_old_names

        checks.register(limits_under_old_names)
