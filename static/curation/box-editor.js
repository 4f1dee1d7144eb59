// The template admin's box editor: the template image with each text box drawn
// over it, moved by dragging and resized by its handles (pointer events: mouse,
// pen and touch alike), boxes added and deleted, each box's colour, font, style,
// alignment, angle and position set beside the image, and the renderer's own
// text for a sample caption laid over the picture (a staff-only endpoint that
// draws the unsaved boxes with generation.render, asked at most every
// PREVIEW_DELAY ms). Every change is written back into the form's boxes
// textarea as JSON, so saving and validation stay with the one box schema.
//
// The textarea carries what the editor needs: data-box-editor (fonts, styles,
// alignments, the most boxes, a new box's settings), data-image (the picture)
// and, for curators who may change templates, data-preview (the endpoint).

import { MIN_SIDE, moved, number, outline, resized } from "./box-geometry.js";

const PREVIEW_DELAY = 300; // ms after the last change before the preview is asked for
const NUDGE = 0.01; // of the image: an arrow key moves the focused box this far (shift: 5x)
const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];
const MAX_HEIGHT = "75vh"; // the picture is shown no taller than this

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function labelled(text, control) {
  return element("label", { class: "box-editor-field" }, element("span", { text }), control);
}

function select(options, value) {
  const control = element("select");
  for (const option of options) control.append(element("option", { value: option, text: option }));
  control.value = value;
  return control;
}

function numberInput(value, min, max, step) {
  return element("input", { type: "number", min, max, step, value: String(value), inputmode: "decimal" });
}

// "#rrggbb" for a colour name or code the browser knows (Pillow's names are CSS's), else null.
const paint = document.createElement("canvas").getContext("2d");
function hexColour(colour) {
  paint.fillStyle = "#010203";
  paint.fillStyle = String(colour);
  const read = paint.fillStyle;
  return read === "#010203" && String(colour).trim().toLowerCase() !== "#010203" ? null : read;
}

class BoxEditor {
  constructor(textarea) {
    this.textarea = textarea;
    this.settings = JSON.parse(textarea.dataset.boxEditor);
    this.previewUrl = textarea.dataset.preview || "";
    this.boxes = [];
    this.samples = [];
    this.selected = -1;
    this.timer = 0;
    this.inFlight = null;
    this.build();
    this.readTextarea(true);
    this.showImage(textarea.dataset.image || "");
    this.watchForm();
  }

  // --- the page ---------------------------------------------------------

  build() {
    this.image = element("img", { class: "box-editor-image", alt: "The template image" });
    this.render = element("img", { class: "box-editor-render", alt: "", hidden: "" });
    this.outlines = element("div", { class: "box-editor-outlines" });
    this.stage = element("div", { class: "box-editor-stage" }, this.image, this.render, this.outlines);
    this.empty = element("p", { class: "box-editor-empty", text: "Choose an image to place the boxes on it." });
    this.status = element("div", { class: "box-editor-status", role: "status", "aria-live": "polite" });
    this.list = element("ol", { class: "box-editor-list" });
    this.addButton = element("button", { type: "button", class: "button", text: "Add a box" });
    this.showRender = element("input", { type: "checkbox", checked: "" });
    const toggle = labelled("Show the renderer's text", this.showRender);
    toggle.classList.add("box-editor-toggle");
    const side = element("div", { class: "box-editor-side" }, this.status, this.list, this.addButton, toggle);
    const picture = element("div", { class: "box-editor-picture" }, this.empty, this.stage);
    this.root = element("div", { class: "box-editor" }, picture, side);
    this.details = element("details", { class: "box-editor-json" }, element("summary", { text: "Boxes as JSON" }));
    this.textarea.before(element("div", { class: "box-editor-wrap" }, this.root, this.details));
    this.details.append(this.textarea);
    if (!this.previewUrl) {
      this.showRender.disabled = true;
      toggle.title = "The renderer's preview needs the permission to change templates.";
    }
    this.image.addEventListener("load", () => this.imageReady());
    this.image.addEventListener("error", () => this.imageMissing());
    this.addButton.addEventListener("click", () => this.addBox());
    this.showRender.addEventListener("change", () => this.schedulePreview());
    this.textarea.addEventListener("input", () => this.readTextarea(false));
  }

  watchForm() {
    const form = this.textarea.form;
    const file = form && form.querySelector("input[type=file][name=image]");
    if (file) {
      file.addEventListener("change", () => {
        if (file.files && file.files[0]) this.showImage(URL.createObjectURL(file.files[0]));
      });
    }
    const mark = form && form.querySelector("[name=mark_position]");
    if (mark) mark.addEventListener("change", () => this.schedulePreview());
    this.markField = mark;
    this.flagServerErrors();
  }

  showImage(url) {
    this.stage.hidden = !url;
    this.empty.hidden = Boolean(url);
    this.naturalSize = null;
    if (url) this.image.src = url;
  }

  imageReady() {
    this.naturalSize = [this.image.naturalWidth, this.image.naturalHeight];
    const [width, height] = this.naturalSize;
    this.stage.style.aspectRatio = `${width} / ${height}`;
    // The whole picture in view while a box is dragged, however tall it is.
    this.stage.style.width = `min(100%, calc(${MAX_HEIGHT} * ${width / height}))`;
    this.drawOutlines();
    this.schedulePreview();
  }

  imageMissing() {
    this.stage.hidden = true;
    this.empty.hidden = false;
    this.empty.textContent = "The image could not be loaded: choose it again.";
  }

  // Box numbers the form's own errors name ("Box 2: ..."), marked on the boxes.
  flagServerErrors() {
    const row = this.textarea.closest(".form-row");
    const messages = row ? [...row.querySelectorAll(".errorlist li")].map((item) => item.textContent) : [];
    this.markProblems(messages);
    if (messages.some((message) => /JSON/.test(message))) this.details.open = true;
  }

  // --- the boxes ----------------------------------------------------------

  readTextarea(first) {
    let boxes;
    try {
      boxes = JSON.parse(this.textarea.value.trim() || "[]") ?? [];
    } catch (error) {
      this.say(["The boxes below are not valid JSON: fix them there, or add a box to start again."]);
      if (first) this.details.open = true;
      return;
    }
    if (!Array.isArray(boxes) || !boxes.every((box) => box && typeof box === "object" && !Array.isArray(box))) {
      this.say(["The boxes below must be a list of boxes: fix them there, or add a box to start again."]);
      return;
    }
    this.boxes = boxes;
    this.samples = boxes.map((_, index) => this.samples[index] ?? this.sampleText(index, boxes.length));
    this.rebuild();
    if (!first) this.schedulePreview();
  }

  writeTextarea() {
    const lines = this.boxes.map((box) => "  " + JSON.stringify(box));
    this.textarea.value = lines.length ? `[\n${lines.join(",\n")}\n]` : "[]";
  }

  // The first example caption's text for this box, else a stand-in.
  sampleText(index, count) {
    const examples = this.textarea.form && this.textarea.form.querySelector("[name=example_captions]");
    const first = examples ? examples.value.split("\n").find((line) => line.trim()) : "";
    const texts = first ? first.split("|").map((text) => text.trim()) : [];
    if (texts.length === count && texts[index]) return texts[index];
    return count === 1 ? "sample caption text" : `sample text for box ${index + 1}`;
  }

  changed(index, box) {
    this.boxes[index] = box;
    this.writeTextarea();
    this.placeOutline(index);
    this.fillSettings(index);
    this.schedulePreview();
  }

  addBox() {
    if (this.boxes.length >= this.settings.maxBoxes) return;
    this.boxes.push({ ...this.settings.defaults });
    this.samples.push(this.sampleText(this.boxes.length - 1, this.boxes.length));
    this.writeTextarea();
    this.rebuild();
    this.select(this.boxes.length - 1);
    this.schedulePreview();
  }

  deleteBox(index) {
    this.boxes.splice(index, 1);
    this.samples.splice(index, 1);
    this.writeTextarea();
    this.selected = -1;
    this.rebuild();
    this.schedulePreview();
  }

  select(index) {
    this.selected = index;
    for (const node of this.root.querySelectorAll("[data-index]")) {
      node.classList.toggle("is-selected", Number(node.dataset.index) === index);
    }
  }

  rebuild() {
    this.outlines.replaceChildren(...this.boxes.map((_, index) => this.outlineFor(index)));
    this.list.replaceChildren(...this.boxes.map((_, index) => this.settingsFor(index)));
    this.addButton.disabled = this.boxes.length >= this.settings.maxBoxes;
    this.drawOutlines();
    this.select(this.selected);
  }

  drawOutlines() {
    this.boxes.forEach((_, index) => this.placeOutline(index));
  }

  size() {
    const rect = this.stage.getBoundingClientRect();
    return [rect.width || 1, rect.height || 1];
  }

  placeOutline(index) {
    const node = this.outlines.children[index];
    if (!node || !this.naturalSize) return;
    const place = outline(this.boxes[index], ...this.naturalSize);
    node.style.left = `${place.left}%`;
    node.style.top = `${place.top}%`;
    node.style.width = `${place.width}%`;
    node.style.height = `${place.height}%`;
    node.style.transform = `rotate(${place.rotate}deg)`;
  }

  // --- dragging ---------------------------------------------------------------

  outlineFor(index) {
    const node = element("div", {
      class: "box-editor-box",
      "data-index": String(index),
      tabindex: "0",
      role: "button",
      "aria-label": `Box ${index + 1}: drag to move, arrow keys to nudge`,
    });
    node.append(element("span", { class: "box-editor-number", text: String(index + 1) }));
    for (const handle of HANDLES) {
      node.append(element("span", { class: `box-editor-handle handle-${handle}`, "data-handle": handle }));
    }
    node.addEventListener("pointerdown", (event) => this.startDrag(event, index));
    node.addEventListener("keydown", (event) => this.nudge(event, index));
    node.addEventListener("focus", () => this.select(index));
    return node;
  }

  startDrag(event, index) {
    if (event.button !== 0 || !this.naturalSize) return;
    event.preventDefault();
    const node = event.currentTarget;
    const handle = event.target.dataset.handle || "";
    const start = { x: event.clientX, y: event.clientY, box: { ...this.boxes[index] } };
    this.select(index);
    node.focus({ preventScroll: true });
    node.setPointerCapture(event.pointerId);
    node.classList.add("is-dragging");
    const move = (moveEvent) => {
      const [width, height] = this.size();
      const dx = moveEvent.clientX - start.x;
      const dy = moveEvent.clientY - start.y;
      const box = handle
        ? resized(start.box, handle, dx, dy, width, height)
        : moved(start.box, dx, dy, width, height);
      this.changed(index, box);
    };
    const end = () => {
      node.classList.remove("is-dragging");
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", end);
      node.removeEventListener("pointercancel", end);
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", end);
    node.addEventListener("pointercancel", end);
  }

  nudge(event, index) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!steps || !this.naturalSize) return;
    event.preventDefault();
    const [width, height] = this.naturalSize;
    const step = NUDGE * (event.shiftKey ? 5 : 1);
    this.changed(index, moved(this.boxes[index], steps[0] * step * width, steps[1] * step * height, width, height));
  }

  // --- each box's settings ------------------------------------------------------

  settingsFor(index) {
    const box = this.boxes[index];
    const defaults = this.settings.defaults;
    const controls = {
      sample: element("input", { type: "text", value: this.samples[index] || "", maxlength: "300" }),
      color: element("input", { type: "text", class: "box-editor-colour", value: String(box.color ?? defaults.color) }),
      swatch: element("input", { type: "color", "aria-label": "Pick a colour" }),
      font: select(this.settings.fonts, box.font ?? defaults.font),
      style: select(this.settings.styles, box.style ?? defaults.style),
      align: select(this.settings.aligns, box.align ?? defaults.align),
      angle: numberInput(number(box.angle, 0), -180, 180, 1),
      anchor_x: numberInput(0, 0, 100, 0.1),
      anchor_y: numberInput(0, 0, 100, 0.1),
      scale_x: numberInput(0, MIN_SIDE * 100, 100, 0.1),
      scale_y: numberInput(0, MIN_SIDE * 100, 100, 0.1),
    };
    for (const [name, control] of Object.entries(controls)) control.dataset.setting = name;
    const remove = element("button", { type: "button", class: "button box-editor-delete", text: "Delete box" });
    const fieldset = element(
      "fieldset",
      {},
      element("legend", { text: `Box ${index + 1}` }),
      labelled("Sample text", controls.sample),
      element(
        "div",
        { class: "box-editor-row" },
        labelled("Colour", controls.color),
        controls.swatch,
        labelled("Font", controls.font),
        labelled("Style", controls.style),
        labelled("Align", controls.align),
        labelled("Angle (°)", controls.angle),
      ),
      element(
        "div",
        { class: "box-editor-row", title: "Percent of the image's width or height" },
        labelled("Left %", controls.anchor_x),
        labelled("Top %", controls.anchor_y),
        labelled("Width %", controls.scale_x),
        labelled("Height %", controls.scale_y),
      ),
      element("p", { class: "box-editor-problems" }),
      element("div", { class: "box-editor-row box-editor-foot" }, remove, element("p", { class: "box-editor-fit" })),
    );
    const item = element("li", { class: "box-editor-settings", "data-index": String(index) }, fieldset);
    item.controls = controls;
    this.wireSettings(index, controls);
    remove.addEventListener("click", () => this.deleteBox(index));
    item.addEventListener("focusin", () => this.select(index));
    this.fillSettings(index, item);
    return item;
  }

  wireSettings(index, controls) {
    const set = (name, value) => this.changed(index, { ...this.boxes[index], [name]: value });
    controls.sample.addEventListener("input", () => {
      this.samples[index] = controls.sample.value;
      this.schedulePreview();
    });
    controls.color.addEventListener("change", () => set("color", controls.color.value.trim()));
    controls.swatch.addEventListener("input", () => set("color", controls.swatch.value));
    for (const name of ["font", "style", "align"]) {
      controls[name].addEventListener("change", () => set(name, controls[name].value));
    }
    controls.angle.addEventListener("change", () => {
      const angle = Number(controls.angle.value);
      if (Number.isFinite(angle)) set("angle", Math.min(Math.max(angle, -180), 180));
    });
    for (const name of ["anchor_x", "anchor_y", "scale_x", "scale_y"]) {
      controls[name].addEventListener("change", () => {
        const percent = Number(controls[name].value);
        if (Number.isFinite(percent)) set(name, Math.round(Math.min(Math.max(percent, 0), 100) * 100) / 10000);
      });
    }
  }

  // The settings shown for a box, from its current values (the focused field is left alone).
  fillSettings(index, item = this.list.children[index]) {
    if (!item) return;
    const box = this.boxes[index];
    const controls = item.controls;
    const show = (control, value) => {
      if (document.activeElement !== control) control.value = value;
    };
    show(controls.color, String(box.color ?? this.settings.defaults.color));
    const hex = hexColour(box.color ?? this.settings.defaults.color);
    if (hex) controls.swatch.value = hex;
    show(controls.angle, String(number(box.angle, 0)));
    for (const name of ["anchor_x", "anchor_y", "scale_x", "scale_y"]) {
      const value = number(box[name], Number.NaN);
      show(controls[name], Number.isFinite(value) ? String(Math.round(value * 1000) / 10) : "");
    }
    for (const name of ["font", "style", "align"]) show(controls[name], box[name] ?? this.settings.defaults[name]);
  }

  // --- the renderer's preview -------------------------------------------------------

  schedulePreview() {
    clearTimeout(this.timer);
    this.render.classList.add("is-stale");
    if (!this.showRender.checked || !this.previewUrl || !this.naturalSize || !this.boxes.length) {
      this.render.hidden = true;
      if (!this.boxes.length) this.say(["No boxes yet: add a box, then drag it into place."]);
      return;
    }
    this.timer = setTimeout(() => this.askPreview(), PREVIEW_DELAY);
  }

  async askPreview() {
    if (this.inFlight) this.inFlight.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const token = this.textarea.form.querySelector("[name=csrfmiddlewaretoken]");
    const body = {
      width: this.naturalSize[0],
      height: this.naturalSize[1],
      boxes: this.boxes,
      texts: this.samples.slice(0, this.boxes.length),
      mark_position: this.markField ? this.markField.value : "bottom-right",
    };
    let response;
    let answer;
    try {
      response = await fetch(this.previewUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
        body: JSON.stringify(body),
        signal: controller.signal,
        credentials: "same-origin",
      });
      answer = await response.json();
    } catch (error) {
      if (error.name !== "AbortError") this.say(["The preview could not be drawn: the site did not answer."]);
      return;
    } finally {
      if (this.inFlight === controller) this.inFlight = null;
    }
    if (!response.ok) {
      this.render.hidden = true;
      this.say(answer.problems || [`The preview could not be drawn (${response.status}).`]);
      this.markProblems(answer.problems || []);
      return;
    }
    this.render.src = answer.image;
    this.render.hidden = false;
    this.render.classList.remove("is-stale");
    this.markProblems([]);
    this.reportFit(answer);
  }

  reportFit(answer) {
    answer.font_sizes.forEach((size, index) => {
      const note = this.list.children[index] && this.list.children[index].querySelector(".box-editor-fit");
      if (note) note.textContent = size ? `Drawn at ${size} px on a meme ${answer.width} px wide.` : "";
    });
    const notes = [];
    if (answer.grown_boxes) notes.push(`${answer.grown_boxes} box(es) grown to keep the text readable.`);
    if (answer.overflow) notes.push(`${answer.overflow} box(es) overflow the image.`);
    this.say(notes);
  }

  // Problems naming a box ("Box 2: ...") shown with that box; the rest in the status.
  markProblems(messages) {
    const perBox = this.boxes.map(() => []);
    for (const message of messages) {
      const match = /^Box (\d+): (.*)$/.exec(message);
      const index = match ? Number(match[1]) - 1 : -1;
      if (index >= 0 && index < perBox.length) perBox[index].push(match[2]);
    }
    perBox.forEach((problems, index) => {
      const item = this.list.children[index];
      const node = this.outlines.children[index];
      if (item) item.querySelector(".box-editor-problems").textContent = problems.join("; ");
      if (item) item.classList.toggle("has-problem", problems.length > 0);
      if (node) node.classList.toggle("has-problem", problems.length > 0);
    });
  }

  say(lines) {
    this.status.replaceChildren(...lines.map((line) => element("p", { text: line })));
  }
}

for (const textarea of document.querySelectorAll("textarea[data-box-editor]")) {
  new BoxEditor(textarea);
}
