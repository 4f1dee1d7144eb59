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

Every sign-in attempt, right or wrong, also takes a use of the ``sign_in``
policy (THROTTLE_SIGN_IN) for its address before any password is checked
(memesite/limits.py, with the site's other limits): a password check costs
about a second of a web worker, and the lock-outs here bound only the wrong
ones. That is every form that checks a password: the site's sign-in page
(``LimitedSignIn``), the admin's (``AdminSignInForm``), the old password of a
password change, and the API's token (feed/api.py). Past it, the page again
with a sentence and, where the view is ours, a 429 with Retry-After.

Changing a password asks for the old one, which is a sign-in by another door:
a wrong old password counts as a failed sign-in of that username at that
address, and a locked-out pair or address may not change it either
(``GuardedPasswordChange``, on the site's page and the admin's). Otherwise
anyone holding a signed-in browser could guess the password without limit.

A locked-out sign-in is answered by ``locked_out`` (AXES_LOCKOUT_CALLABLE): a
429 in the API's one shape under /api/, axes' own sentence elsewhere.
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
from django.contrib.admin.forms import AdminAuthenticationForm, AdminPasswordChangeForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Sum
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.urls import reverse_lazy

from memesite import limits
from memesite.refusals import refusal

SIGN_IN_REFUSED = "Too many sign-ins from your network: please try again later."
TOO_MANY_SIGN_INS = "too_many_sign_ins"  # the code of that error on a form


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


def take_a_sign_in(request: HttpRequest) -> None:
    """Take a use of ``sign_in`` for the request's address, before a password is
    checked; a form's error when none is left."""
    if not limits.take("sign_in", limits.address(request)):
        raise ValidationError(SIGN_IN_REFUSED, code=TOO_MANY_SIGN_INS)


def as_refused_sign_in(
    request: HttpRequest, form: BaseForm, page: HttpResponse, field: str = NON_FIELD_ERRORS
) -> HttpResponse:
    """The page showing ``form``, as a 429 with Retry-After where ``take_a_sign_in`` refused it."""
    if form.has_error(field, TOO_MANY_SIGN_INS):
        page.status_code = 429
        page["Retry-After"] = str(limits.retry_after("sign_in", limits.address(request)))
    return page


class SignInForm(AuthenticationForm):
    """Django's sign-in form, which checks a password only once a use of ``sign_in`` is taken."""

    def clean(self) -> dict[str, Any]:
        if self.request is not None:
            take_a_sign_in(self.request)
        return super().clean()


class AdminSignInForm(SignInForm, AdminAuthenticationForm):
    """The same for the admin's sign-in page (admin.site.login_form, memesite/urls.py)."""


class LimitedSignIn(auth_views.LoginView):
    """Django's sign-in page with ``SignInForm``: past the limit, the page again
    with a sentence, as a 429."""

    form_class = SignInForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        return as_refused_sign_in(self.request, form, super().form_invalid(form))


class OldPasswordCountsAsSignIn(PasswordChangeForm):
    """Django's password change form, whose old password is checked as a sign-in is."""

    request: HttpRequest

    def clean_old_password(self) -> str:
        take_a_sign_in(self.request)
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

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        return as_refused_sign_in(self.request, form, super().form_invalid(form), "old_password")


class GuardedAdminPasswordChange(GuardedPasswordChange):
    """The admin's password page (its template, look and links), guarded the same way."""

    form_class = AdminOldPasswordCountsAsSignIn
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("admin:password_change_done")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**admin.site.each_context(self.request), **super().get_context_data(**kwargs)}


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict[str, Any] | None
) -> HttpResponse:
    """django-axes' answer to a locked-out sign-in (AXES_LOCKOUT_CALLABLE): a 429,
    in the API's one shape under /api/, axes' own plain sentence elsewhere."""
    message = get_lockout_message()
    return refusal(request, 429, message, lambda: HttpResponse(message, status=429))
