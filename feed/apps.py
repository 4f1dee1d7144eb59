from django.apps import AppConfig


class FeedConfig(AppConfig):
    name = "feed"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Here, not at the top: these import models, which exist only once apps are loaded.
        from django.contrib.auth.signals import user_logged_out

        from feed import media  # noqa: F401  registers the check that media is served
        from feed.authentication import revoke_on_sign_out

        user_logged_out.connect(revoke_on_sign_out, dispatch_uid="feed.revoke_tokens_on_sign_out")
