"""Curation: templates (a box editor over the image writing the one box
schema, plain-text keywords, names and example captions, an image kept across
form errors, templates drafted from captioned memes, activate/deactivate,
search by any name) and memes (filter, hide)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.db.models import QuerySet
from django.forms import Form
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_POST

from feed.box_preview import PreviewRefused, preview, preview_request
from feed.forms import AddUserForm, ChangeUserForm
from feed.importer import CaptionedMemeError, captioned_meme_spec
from feed.models import Favourite, Meme, Reaction, Report, Template, UserSettings
from feed.pending_uploads import forget_pending_image, keep_pending_image, pending_image
from feed.template_forms import CaptionedMemeForm, TemplateForm, read_upload
from generation.images import ImageRejected

_DRAFT_SALT = "feed.template-draft"
DRAFT_MAX_AGE = 24 * 3600  # seconds a draft link from "Add from a captioned meme" stays good


@admin.register(Template)
class TemplateAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TemplateForm
    change_list_template = "admin/feed/template/change_list.html"
    list_display = (
        "thumbnail",
        "name",
        "slug",
        "box_count",
        "model_key",
        "caption_format_source",
        "is_active",
        "meme_count",
    )
    list_display_links = ("thumbnail", "name")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "alternative_names", "keywords", "model_key")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("caption_format", "image_sha256", "created_at", "updated_at")
    actions = ("activate", "deactivate")
    fieldsets = (
        (None, {"fields": ("name", "slug", "is_active", "image", "image_stash")}),
        ("Text boxes", {"fields": ("boxes", "mark_position")}),
        (
            "For the caption model",
            {"fields": ("caption_format", "model_key", "keywords", "alternative_names", "example_captions")},
        ),
        ("Credit", {"fields": ("source", "credit", "image_sha256", "created_at", "updated_at")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Template]:
        return super().get_queryset(request).prefetch_related(None)

    @admin.display(description="")
    def thumbnail(self, template: Template) -> SafeString:
        if not template.image:
            return mark_safe("")
        return format_html('<img src="{}" alt="" style="height:48px">', template.image.url)

    @admin.display(description="caption format")
    def caption_format(self, template: Template) -> str:
        if not template.pk:
            return "Said here once the template is saved: where its captions' format comes from."
        return template.caption_format().note

    @admin.display(description="format from")
    def caption_format_source(self, template: Template) -> str:
        return template.caption_format().source

    @admin.display(description="memes")
    def meme_count(self, template: Template) -> int:
        return template.memes.filter(status=Meme.Status.READY).count()

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        """The box editor gets the image to draw over and, for curators who may
        change templates, the live preview's address."""
        form = context["adminform"].form
        attrs = form.fields["boxes"].widget.attrs
        token = form.kept_image_token()
        if token:
            attrs["data-image"] = reverse("admin:feed_template_pending_image", args=[token])
        elif form.instance.image:
            attrs["data-image"] = form.instance.image.url
        if self.has_change_permission(request):
            attrs["data-preview"] = reverse("admin:feed_template_preview")
        return super().render_change_form(request, context, *args, **kwargs)

    def save_model(self, request: HttpRequest, template: Template, form: Form, change: bool) -> None:
        super().save_model(request, template, form, change)
        format_ = template.caption_format()
        if format_.lacking:
            messages.warning(request, format_.note)
        token = form.stash_token() if isinstance(form, TemplateForm) else ""
        if token:  # the kept image is the template's own file now
            transaction.on_commit(lambda: forget_pending_image(token))

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """A draft from "Add from a captioned meme" fills the add form."""
        initial = super().get_changeform_initial_data(request)
        draft = request.GET.get("draft")
        if draft:
            try:
                initial.update(signing.loads(draft, salt=_DRAFT_SALT, max_age=DRAFT_MAX_AGE))
            except signing.BadSignature:
                messages.warning(request, "That draft is broken or over a day old: upload the meme again.")
            initial.pop("draft", None)
        return initial

    def get_urls(self) -> list[URLPattern]:
        def view(function: Any, route: str, name: str) -> URLPattern:
            wrapped = self.admin_site.admin_view(function)
            return path(route, wrapped, name=f"feed_template_{name}")  # type: ignore[no-any-return]

        return [
            view(self.from_meme_view, "from-meme/", "from_meme"),
            view(self.preview_view, "preview/", "preview"),
            view(self.pending_image_view, "pending/<str:token>/", "pending_image"),
            *super().get_urls(),
        ]

    def from_meme_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a captioned meme; get the add form filled in with a blank image
        and boxes where the text was, to correct before anything is saved."""
        if not self.has_add_permission(request):
            return HttpResponse(status=403)
        form = CaptionedMemeForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["image"]
            try:
                spec = captioned_meme_spec(
                    read_upload(upload), form.cleaned_data["name"], form.cleaned_data["slug"], upload.name
                )
            except (ImageRejected, CaptionedMemeError) as error:
                form.add_error("image", str(error))
            else:
                kept = keep_pending_image(spec.image_bytes)
                draft = {**spec.values, "slug": spec.slug, "image_stash": kept}
                self.message_user(
                    request,
                    f"Read {len(spec.values['boxes'])} box(es) and painted the text out. Nothing is saved "
                    "yet: check the boxes on the image, correct them, then save.",
                    messages.SUCCESS,
                )
                query = signing.dumps(draft, salt=_DRAFT_SALT, compress=True)
                return HttpResponseRedirect(f"{reverse('admin:feed_template_add')}?draft={query}")
        context = {**self.admin_site.each_context(request), "form": form, "opts": self.model._meta}
        return render(request, "admin/feed/template/from_meme.html", context)

    def preview_view(self, request: HttpRequest) -> HttpResponse:
        """The text of unsaved boxes as the renderer draws it (see feed.box_preview)."""
        return _preview(request) if self.has_change_permission(request) else _refused()

    def pending_image_view(self, request: HttpRequest, token: str) -> HttpResponse:
        """An image kept for a form, shown in that form's box editor."""
        if not (self.has_add_permission(request) or self.has_change_permission(request)):
            return _refused()
        return _pending_image(request, token)

    @admin.action(description="Activate selected templates", permissions=["change"])
    def activate(self, request: HttpRequest, queryset: QuerySet[Template]) -> None:
        count = queryset.update(is_active=True)
        self.message_user(request, f"{count} template(s) activated.", messages.SUCCESS)

    @admin.action(description="Deactivate selected templates (no new memes)", permissions=["change"])
    def deactivate(self, request: HttpRequest, queryset: QuerySet[Template]) -> None:
        count = queryset.update(is_active=False)
        self.message_user(request, f"{count} template(s) deactivated.", messages.SUCCESS)


def _refused() -> HttpResponse:
    return JsonResponse({"problems": ["you may not change templates"]}, status=403)


@require_POST
def _preview(request: HttpRequest) -> HttpResponse:
    try:
        checked = preview_request(request.body)
    except PreviewRefused as error:
        return JsonResponse({"problems": error.problems}, status=400)
    return JsonResponse(preview(checked, settings.RENDER_WIDTH))


@require_GET
def _pending_image(request: HttpRequest, token: str) -> HttpResponse:
    data = pending_image(token)
    if data is None:
        return HttpResponse(status=404)
    response = HttpResponse(data, content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@admin.register(Meme)
class MemeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "id",
        "thumbnail",
        "caption",
        "template",
        "status",
        "likes",
        "dislikes",
        "favourites",
        "reports",
    )
    list_filter = ("status", "template")
    list_select_related = ("template",)
    search_fields = ("texts", "keywords")
    readonly_fields = (
        "template",
        "texts",
        "keywords",
        "image",
        "generation_id",
        "job",
        "requested_by",
        "model_version",
        "sampling_settings",
        "created_at",
        "ready_at",
        "likes",
        "dislikes",
        "favourites",
        "reports",
        "rating",
        "hot",
    )
    exclude = ("sampling",)
    actions = ("hide", "unhide")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # memes come from the generator, not the admin

    @admin.display(description="")
    def thumbnail(self, meme: Meme) -> SafeString:
        if not meme.image:
            return mark_safe("")
        return format_html('<img src="{}" alt="" style="height:48px">', meme.image.url)

    @admin.display(description="sampling settings")
    def sampling_settings(self, meme: Meme) -> str:
        return json.dumps(meme.sampling, sort_keys=True)

    @admin.action(description="Hide selected memes from every feed", permissions=["change"])
    def hide(self, request: HttpRequest, queryset: QuerySet[Meme]) -> None:
        count = queryset.filter(status=Meme.Status.READY).update(status=Meme.Status.HIDDEN)
        self.message_user(request, f"{count} meme(s) hidden.", messages.SUCCESS)

    @admin.action(description="Unhide selected memes", permissions=["change"])
    def unhide(self, request: HttpRequest, queryset: QuerySet[Meme]) -> None:
        count = queryset.filter(status=Meme.Status.HIDDEN).update(status=Meme.Status.READY)
        self.message_user(request, f"{count} meme(s) back in the feed.", messages.SUCCESS)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("meme", "user", "reason", "created_at")
    list_filter = ("reason",)
    list_select_related = ("meme", "user")
    raw_id_fields = ("meme", "user")


class ReaderAdmin(UserAdmin):  # type: ignore[type-arg]
    """Django's user admin, whose forms refuse a name too like one held (feed/names.py)."""

    form = ChangeUserForm
    add_form = AddUserForm


admin.site.unregister(User)
admin.site.register(User, ReaderAdmin)
admin.site.register(UserSettings)
admin.site.register(Reaction)
admin.site.register(Favourite)
admin.site.site_header = "memesite curation"
