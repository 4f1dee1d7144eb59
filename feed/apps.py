from django.apps import AppConfig


class FeedConfig(AppConfig):
    name = "feed"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Models load only once the registry is ready, hence imports here (Django's way).
        from feed import media  # noqa: F401  registers the check that media is served
        from feed.outlet import FeedOutlet
        from generation.outlet import use_outlet

        use_outlet(FeedOutlet())  # the feed is where generation's memes go
