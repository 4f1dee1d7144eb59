from django.apps import AppConfig


class FeedConfig(AppConfig):
    name = "feed"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Models load only once the registry is ready, hence imports here (Django's way).
        from django.contrib.auth.signals import user_logged_out

        from feed import media  # noqa: F401  registers the check that media is served
        from feed.authentication import revoke_on_sign_out
        from feed.outlet import FeedOutlet
        from generation.outlet import use_outlet

        use_outlet(FeedOutlet())  # the feed is where generation's memes go
        user_logged_out.connect(revoke_on_sign_out, dispatch_uid="feed.revoke_tokens_on_sign_out")
