"""Curation: templates (image with its boxes drawn over it, validated box
schema, activate/deactivate, search by any name) and memes (filter, hide)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AdminFileWidget
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from feed.importer import CaptionedMemeError, template_from_captioned_meme
from feed.models import Favourite, Meme, Reaction, Report, Template, UserSettings
from generation.images import ImageRejected, check_size, encode_image, load_image
from generation.layout import LayoutError, TextBox, boxes_to_json, parse_boxes


class BoxesField(forms.JSONField):
    """The text boxes as JSON, checked against the one box schema."""

    def clean(self, value: Any) -> Any:
        boxes = super().clean(value)
        try:
            return boxes_to_json(parse_boxes(boxes))
        except LayoutError as error:
            raise forms.ValidationError(str(error)) from None


IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/gif,image/bmp"  # what load_image takes


def read_upload(upload: UploadedFile[bytes]) -> bytes:
    """An upload's bytes; one over the intake's limit is refused by its size, unread."""
    check_size(upload.size or 0, upload.name or "image")
    data: bytes = upload.read()
    return data


def outline_corner(box: TextBox, size: tuple[int, int]) -> tuple[float, float]:
    """Left and top, in percent of the image, of a box outline that CSS turns
    about its centre so it lands where the renderer draws the turned box."""
    centre_x, centre_y = box.centre(size)
    return (
        (centre_x - box.scale_x * size[0] / 2) / size[0] * 100,
        (centre_y - box.scale_y * size[1] / 2) / size[1] * 100,
    )


class TemplateForm(forms.ModelForm):  # type: ignore[type-arg]
    # A plain file field: Django's image field would decode the upload before
    # load_image, and refuse a bomb, an SVG or a truncated file alike as "not an
    # image or a corrupted image"; load_image names the problem.
    image = forms.FileField(widget=AdminFileWidget(attrs={"accept": IMAGE_TYPES}))
    boxes = BoxesField(
        help_text="A list of boxes; each: anchor_x, anchor_y, scale_x, scale_y (fractions of the image), "
        "angle (degrees), color, font (thick, thin, comic, notosans), style (upper, none, default, mock), "
        "align (center, left, right).",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 80}),
    )

    source = forms.URLField(required=False, assume_scheme="https")

    class Meta:
        model = Template
        fields = (
            "name",
            "slug",
            "is_active",
            "image",
            "boxes",
            "mark_position",
            "model_key",
            "keywords",
            "alternative_names",
            "example_captions",
            "source",
            "credit",
        )

    def clean_image(self) -> Any:
        upload = self.cleaned_data.get("image")
        if upload is None or not hasattr(upload, "read") or upload == self.instance.image:
            return upload
        try:
            normalised = load_image(read_upload(upload), upload.name or "image")
        except ImageRejected as error:
            raise forms.ValidationError(str(error)) from None
        encoded = encode_image(normalised.image, "JPEG", quality=90)
        digest = hashlib.sha256(encoded).hexdigest()
        self.instance.image_sha256 = digest
        return ContentFile(encoded, name=f"{digest[:16]}.jpg")


class CaptionedMemeForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, required=False, help_text="made from the name when empty")
    image = forms.FileField(
        help_text="a meme with its caption on it: JPEG, PNG, WebP, GIF or BMP",
        widget=forms.ClearableFileInput(attrs={"accept": IMAGE_TYPES}),
    )


@admin.register(Template)
class TemplateAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TemplateForm
    change_list_template = "admin/feed/template/change_list.html"
    list_display = ("thumbnail", "name", "slug", "box_count", "model_key", "is_active", "meme_count")
    list_display_links = ("thumbnail", "name")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "alternative_names", "keywords", "model_key")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("preview", "image_sha256", "created_at", "updated_at")
    actions = ("activate", "deactivate")
    fieldsets = (
        (None, {"fields": ("name", "slug", "is_active", "image", "preview")}),
        ("Text boxes", {"fields": ("boxes", "mark_position")}),
        (
            "For the caption model",
            {"fields": ("model_key", "keywords", "alternative_names", "example_captions")},
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

    @admin.display(description="memes")
    def meme_count(self, template: Template) -> int:
        return template.memes.filter(status=Meme.Status.READY).count()

    @admin.display(description="preview")
    def preview(self, template: Template) -> SafeString:
        """The image with each box outlined and numbered where the renderer puts it."""
        if not template.image:
            return mark_safe("<em>no image yet</em>")
        try:
            boxes = parse_boxes(template.boxes)
        except LayoutError as error:
            return format_html("<em>{}</em>", error)
        size = (template.image.width, template.image.height)
        outlines = format_html_join(
            "",
            '<div class="box-outline" style="left:{}%;top:{}%;width:{}%;height:{}%;transform:rotate({}deg)">'
            "{}</div>",
            (
                (*outline_corner(box, size), box.scale_x * 100, box.scale_y * 100, -box.angle, n)
                for n, box in enumerate(boxes, start=1)
            ),
        )
        return format_html(
            '<div class="template-preview"><img src="{}" alt="{}">{}</div>',
            template.image.url,
            template.name,
            outlines,
        )

    def get_urls(self) -> list[URLPattern]:
        from_meme = path(
            "from-meme/", self.admin_site.admin_view(self.from_meme_view), name="feed_template_from_meme"
        )
        return [from_meme, *super().get_urls()]

    def from_meme_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a captioned meme; get a blank template with its boxes where the text was."""
        if not self.has_add_permission(request):
            return HttpResponse(status=403)
        form = CaptionedMemeForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["image"]
            try:
                template = template_from_captioned_meme(
                    read_upload(upload), form.cleaned_data["name"], form.cleaned_data["slug"], upload.name
                )
            except (ImageRejected, CaptionedMemeError) as error:
                form.add_error("image", str(error))
            else:
                self.message_user(
                    request,
                    f"Made {template.name} with {template.box_count} box(es). "
                    "It is inactive: check the boxes, then activate it.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:feed_template_change", args=[template.pk]))
        context = {**self.admin_site.each_context(request), "form": form, "opts": self.model._meta}
        return render(request, "admin/feed/template/from_meme.html", context)

    @admin.action(description="Activate selected templates", permissions=["change"])
    def activate(self, request: HttpRequest, queryset: QuerySet[Template]) -> None:
        count = queryset.update(is_active=True)
        self.message_user(request, f"{count} template(s) activated.", messages.SUCCESS)

    @admin.action(description="Deactivate selected templates (no new memes)", permissions=["change"])
    def deactivate(self, request: HttpRequest, queryset: QuerySet[Template]) -> None:
        count = queryset.update(is_active=False)
        self.message_user(request, f"{count} template(s) deactivated.", messages.SUCCESS)

    class Media:
        css = {"all": ("curation/template-preview.css",)}


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


admin.site.register(UserSettings)
admin.site.register(Reaction)
admin.site.register(Favourite)
admin.site.site_header = "memesite curation"
