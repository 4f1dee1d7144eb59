"""The template admin's forms: the image (kept across an error), the text boxes
(a drag-and-drop editor over the image, writing the one box schema's JSON),
and keywords, names and example captions typed as plain text. The model keeps
all of them as JSON; only what the curator types changes."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django import forms
from django.contrib.admin.widgets import AdminFileWidget
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.forms.fields import InvalidJSONInput
from django.forms.widgets import Script
from django.http import QueryDict

from feed.models import Template
from feed.pending_uploads import keep_pending_image, pending_image, pending_name
from generation.images import ImageRejected, check_size, encode_image, load_image
from generation.layout import ALIGNS, MAX_BOXES, STYLES, LayoutError, TextBox, boxes_to_json, parse_boxes
from generation.render.fonts import font_names
from memesite.parsers import TooDeep, load_json

IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/gif,image/bmp"  # what load_image takes
CAPTION_SEPARATOR = "|"  # between a caption's box texts on one line (ImgFlip's " | ")
MAX_LIST_ITEMS = 50  # keywords, names or example captions a template keeps
MAX_ITEM_CHARS = 200  # characters in one keyword, name or box text


def read_upload(upload: UploadedFile[bytes]) -> bytes:
    """An upload's bytes; one over the intake's limit is refused by its size, unread."""
    check_size(upload.size or 0, upload.name or "image")
    data: bytes = upload.read()
    return data


class BoxEditorWidget(forms.Textarea):
    """The boxes as JSON in a textarea, which static/curation/box-editor.js turns
    into an editor over the template image: it writes every change back here,
    so what is saved still passes the one schema. Without script the JSON is
    edited by hand. The admin adds the image and the preview endpoint."""

    def __init__(self) -> None:
        settings = {
            "fonts": font_names(),
            "styles": list(STYLES),
            "aligns": list(ALIGNS),
            "maxBoxes": MAX_BOXES,
            "defaults": TextBox(anchor_x=0.1, anchor_y=0.4, scale_x=0.8, scale_y=0.2).to_dict(),
        }
        super().__init__(attrs={"rows": 8, "cols": 80, "data-box-editor": json.dumps(settings)})

    class Media:
        js = [Script("curation/box-editor.js", type="module")]
        css = {"all": ["curation/box-editor.css"]}


class BoxesField(forms.JSONField):
    """The text boxes as JSON, checked against the one box schema: every
    problem of every box is reported at once, each naming its box."""

    widget = BoxEditorWidget

    def prepare_value(self, value: Any) -> Any:
        """One box a line, so the JSON stays readable where it is edited by hand."""
        if value is None:  # a new template: no boxes yet, not "null"
            return ""
        if isinstance(value, list):
            lines = ",\n".join(f"  {json.dumps(box, ensure_ascii=False)}" for box in value)
            return f"[\n{lines}\n]"
        return super().prepare_value(value)

    def to_python(self, value: Any) -> Any:
        """Django's parse with the site's limit on nesting: Django's own lets a
        RecursionError (boxes nested a thousand deep) or an integer over Python's
        4,300 digits out as a 500."""
        if self.disabled or not isinstance(value, str) or value in self.empty_values:
            return super().to_python(value)
        try:
            return load_json(value)
        except TooDeep as error:
            raise forms.ValidationError(str(error), code="invalid") from None
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None

    def bound_data(self, data: Any, initial: Any) -> Any:
        """What was sent, as the form shows it again after an error: parsed once more,
        so through the same limit; text that is not usable JSON is shown as typed."""
        if self.disabled or not isinstance(data, str):
            return super().bound_data(data, initial)
        try:
            return load_json(data)
        except ValueError:
            return InvalidJSONInput(data)

    def clean(self, value: Any) -> Any:
        boxes = super().clean(value)
        try:
            return boxes_to_json(parse_boxes(boxes))
        except LayoutError as error:
            raise forms.ValidationError(error.problems) from None


class TextListField(forms.CharField):
    """A list of texts typed one per line (``commas``: or separated by commas);
    blank lines and repeats are dropped, inner whitespace folded."""

    def __init__(self, *, commas: bool = False, **kwargs: Any) -> None:
        self.commas = commas
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return (", " if self.commas else "\n").join(str(item) for item in value)
        return value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().to_python(value) or ""
        items = [" ".join(part.split()) for part in re.split(r"[,\n]" if self.commas else r"\n", text)]
        return checked_items(list(dict.fromkeys(item for item in items if item)), "line")


class CaptionListField(forms.CharField):
    """Example captions, one per line, a caption's box texts separated by ``|``
    (``top text | bottom text``); stored as a list of lists of box texts."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            joiner = f" {CAPTION_SEPARATOR} "
            return "\n".join(joiner.join(map(str, caption)) for caption in value if isinstance(caption, list))
        return value

    def to_python(self, value: Any) -> list[list[str]]:  # type: ignore[override]
        captions: list[list[str]] = []
        for number, line in enumerate((super().to_python(value) or "").splitlines(), start=1):
            boxes = [" ".join(text.split()) for text in line.split(CAPTION_SEPARATOR)]
            if not any(boxes):
                continue
            if len(boxes) > MAX_BOXES:
                raise forms.ValidationError(
                    f"Line {number}: a caption has at most {MAX_BOXES} box texts, not {len(boxes)}"
                )
            checked_items(boxes, f"line {number}, box")
            if boxes not in captions:
                captions.append(boxes)
        if len(captions) > MAX_LIST_ITEMS:
            raise forms.ValidationError(f"At most {MAX_LIST_ITEMS} example captions, not {len(captions)}")
        return captions


def checked_items(items: list[str], what: str) -> list[str]:
    if len(items) > MAX_LIST_ITEMS:
        raise forms.ValidationError(f"At most {MAX_LIST_ITEMS} entries, not {len(items)}")
    too_long = [
        f"{what.capitalize()} {number}: over {MAX_ITEM_CHARS} characters"
        for number, item in enumerate(items, start=1)
        if len(item) > MAX_ITEM_CHARS
    ]
    if too_long:
        raise forms.ValidationError(too_long)
    return items


class TemplateForm(forms.ModelForm):  # type: ignore[type-arg]
    # A plain file field: Django's image field would decode the upload before
    # load_image, and refuse a bomb, an SVG or a truncated file alike as "not an
    # image or a corrupted image"; load_image names the problem. Not required
    # here: an image kept from an earlier try (image_stash) stands in for it.
    image = forms.FileField(required=False, widget=AdminFileWidget(attrs={"accept": IMAGE_TYPES}))
    # The signed name of an image checked on an earlier try of this form.
    image_stash = forms.CharField(required=False, widget=forms.HiddenInput)
    boxes = BoxesField(
        help_text="Drag a box to move it and its corners to resize it; each box's settings are beside the "
        "image. Saved as JSON: a list of boxes, each anchor_x, anchor_y, scale_x, scale_y (fractions of the "
        "image), angle (degrees), color, font, style, align.",
    )
    keywords = TextListField(
        commas=True,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 80}),
        help_text="Words the captions are about, separated by commas (or one per line).",
    )
    alternative_names = TextListField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Other names people know this template by, one per line.",
    )
    example_captions = CaptionListField(
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        help_text="One caption per line; separate its boxes' texts with | (top text | bottom text).",
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.new_image: bytes | None = None  # a checked upload of this try, re-encoded

    def clean_image(self) -> Any:
        """A new upload, else the image kept from an earlier try, else the saved one."""
        upload = self.cleaned_data.get("image")
        if upload is not None and hasattr(upload, "read") and upload != self.instance.image:
            try:
                normalised = load_image(read_upload(upload), upload.name or "image")
            except ImageRejected as error:
                raise forms.ValidationError(str(error)) from None
            self.new_image = encode_image(normalised.image, "JPEG", quality=90)
            return self.image_file(self.new_image)
        kept = pending_image(self.stash_token())
        if kept is not None:
            return self.image_file(kept)
        if not upload:
            raise forms.ValidationError("Choose the template's image.", code="required")
        return upload

    def image_file(self, encoded: bytes) -> ContentFile[bytes]:
        digest = hashlib.sha256(encoded).hexdigest()
        self.instance.image_sha256 = digest
        return ContentFile(encoded, name=f"{digest[:16]}.jpg")

    def full_clean(self) -> None:
        """On any error, an image accepted on this try is kept for the next one."""
        super().full_clean()
        if self.errors and self.new_image is not None:
            data = QueryDict(mutable=True)
            data.update(self.data)
            data[self.add_prefix("image_stash")] = keep_pending_image(self.new_image)
            self.data = data

    def stash_token(self) -> str:
        """The token of the image kept from an earlier try (or a draft), if any."""
        if self.is_bound:
            return str(self.data.get(self.add_prefix("image_stash"), ""))
        return str(self.initial.get("image_stash", ""))

    def kept_image_token(self) -> str | None:
        """The stash token when it still names a kept image the form will use."""
        token = self.stash_token()
        return token if token and pending_name(token) is not None else None


class CaptionedMemeForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, required=False, help_text="made from the name when empty")
    image = forms.FileField(
        help_text="a meme with its caption on it: JPEG, PNG, WebP, GIF or BMP",
        widget=forms.ClearableFileInput(attrs={"accept": IMAGE_TYPES}),
    )
