"""Curation through the API asks what the admin asks: a staff account holding
the model permissions for the change (a staff account alone opens the admin
but shows it nothing)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

HIDE_MEMES = ("feed.change_meme",)  # the admin's hide and unhide actions need the same
# The insights report on templates and on the generation queue.
SEE_INSIGHTS = ("feed.view_template", "generation.view_generationjob")


def staff_with(*permissions: str) -> type[BasePermission]:
    """A DRF permission: an active staff account holding every one of ``permissions``."""

    class StaffWithPermissions(BasePermission):
        message = "This needs a staff account with permission to do it."

        def has_permission(self, request: Request, view: APIView) -> bool:
            user = request.user
            return bool(user.is_active and user.is_staff and user.has_perms(permissions))

    return StaffWithPermissions
