from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from feed import views
from memesite.sign_in_limits import GuardedPasswordChange, LimitedSignIn

urlpatterns = [
    path("", views.home_page, name="feed"),
    path("favourites/", views.favourites_page, name="favourites"),
    path("m/<int:meme_id>/", views.meme_page, name="meme"),
    path("accounts/signup/", views.signup_page, name="signup"),
    path("accounts/login/", LimitedSignIn.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Our own template names: the admin's password pages use Django's default ones.
    path(
        "accounts/password/",
        GuardedPasswordChange.as_view(
            template_name="registration/change_password.html", success_url=reverse_lazy("password_changed")
        ),
        name="password_change",
    ),
    path(
        "accounts/password/changed/",
        auth_views.PasswordChangeDoneView.as_view(template_name="registration/password_changed.html"),
        name="password_changed",
    ),
]
