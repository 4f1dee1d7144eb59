from django.apps import AppConfig


class FeedConfig(AppConfig):
    name = "feed"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Models load only once the registry is ready, hence imports here (Django's way).
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save, pre_save

        from feed import media  # noqa: F401  registers the check that media is served
        from feed.authentication import revoke_on_sign_out
        from feed.models import hold_username_skeleton, refuse_lookalike_username
        from feed.outlet import FeedOutlet
        from generation.outlet import use_outlet

        use_outlet(FeedOutlet())  # the feed is where generation's memes go
        user_logged_out.connect(revoke_on_sign_out, dispatch_uid="feed.revoke_tokens_on_sign_out")
        users = get_user_model()
        pre_save.connect(
            refuse_lookalike_username, sender=users, dispatch_uid="feed.refuse_lookalike_username"
        )
        post_save.connect(hold_username_skeleton, sender=users, dispatch_uid="feed.hold_username_skeleton")
