from django.apps import AppConfig


class FeedConfig(AppConfig):
    name = "feed"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from feed import media  # noqa: F401  registers the check that media is served
