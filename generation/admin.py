"""Generation jobs, for staff to follow (read only: jobs come from the site, not the admin)."""

from django.contrib import admin
from django.http import HttpRequest

from generation.models import GenerationJob


@admin.register(GenerationJob)
class GenerationJobAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "template", "reason", "count", "status", "attempts", "created_at", "finished_at")
    list_filter = ("status", "reason")
    readonly_fields = [field.name for field in GenerationJob._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
