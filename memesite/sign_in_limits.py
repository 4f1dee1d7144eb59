"""Sign-in lock-outs (django-axes' AXES_HANDLER), counted on the client's
address from memesite.addresses:

- a username at one address is locked after LOGIN_FAILURE_LIMIT failures there
  (axes' own count on the pair): guessing alice's password from elsewhere never
  locks alice out at her own address;
- an address is locked after LOGIN_ADDRESS_FAILURE_LIMIT failures across all
  usernames: password spraying (one guess for many accounts) stops too.

Both counts cover the cool-off (LOGIN_COOLOFF_MINUTES). A successful sign-in
clears only its own pair's failures, so an attacker signing into an account of
his own does not wipe his address's count.

Every sign-in attempt, right or wrong, also takes a use of THROTTLE_SIGN_IN
for its address before any password is checked (feed.limits, with the site's
other limits): a password check costs about a second of a web worker, and the
lock-outs here bound only the wrong ones.

Changing a password asks for the old one, which is a sign-in by another door:
a wrong old password counts as a failed sign-in of that username at that
address, and a locked-out pair or address may not change it either
(``GuardedPasswordChange``, on the site's page and the admin's). Otherwise
anyone holding a signed-in browser could guess the password without limit.
"""

from __future__ import annotations

from typing import Any, cast

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_failure_limit, get_lockout_message
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminPasswordChangeForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.http import HttpRequest
from django.urls import reverse_lazy


class PairAndAddressLimits(AxesDatabaseHandler):  # type: ignore[misc]
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The pair's failures, which axes holds against LOGIN_FAILURE_LIMIT both
        before a sign-in and after a failure; an address over its own limit
        counts as at that limit for every username."""
        failures = int(super().get_failures(request, credentials))
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(failures, int(get_failure_limit(request, credentials)))
        return failures


def address_failures(request: HttpRequest) -> int:
    """Failed sign-ins from the request's address within the cool-off, for any username."""
    recent = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        attempt_time__gte=get_cool_off_threshold(request),
    )
    return int(recent.aggregate(failures=Sum("failures_since_start"))["failures"] or 0)


class OldPasswordCountsAsSignIn(PasswordChangeForm):
    """Django's password change form, whose old password is checked as a sign-in is."""

    request: HttpRequest

    def clean_old_password(self) -> str:
        credentials = {"username": self.user.get_username()}
        if not AxesProxyHandler.is_allowed(self.request, credentials):
            self.request.axes_locked_out = True  # type: ignore[attr-defined]  # AxesMiddleware answers
            raise ValidationError(get_lockout_message(), code="locked_out")
        try:
            return str(super().clean_old_password())
        except ValidationError:
            user_login_failed.send(sender=type(self), credentials=credentials, request=self.request)
            raise


class AdminOldPasswordCountsAsSignIn(OldPasswordCountsAsSignIn, AdminPasswordChangeForm):
    """The same for the admin's password page, in the admin's look."""


class GuardedPasswordChange(auth_views.PasswordChangeView):
    """PasswordChangeView whose form can count a wrong old password against the request."""

    form_class = OldPasswordCountsAsSignIn

    def get_form(self, form_class: Any = None) -> OldPasswordCountsAsSignIn:
        form = cast(OldPasswordCountsAsSignIn, super().get_form(form_class))
        form.request = self.request
        return form


class GuardedAdminPasswordChange(GuardedPasswordChange):
    """The admin's password page (its template, look and links), guarded the same way."""

    form_class = AdminOldPasswordCountsAsSignIn
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("admin:password_change_done")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**admin.site.each_context(self.request), **super().get_context_data(**kwargs)}
