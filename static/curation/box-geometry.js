// Text box geometry for the box editor, in the one schema's terms
// (generation/layout.py): anchor_x, anchor_y, scale_x, scale_y are fractions of
// the image, angle is in degrees counter-clockwise. Like memegen, a turned box
// is turned about its centre and its turned outline's corner sits at the
// anchor (TextBox.centre). Pixel arguments (width, height, dx, dy) are in any
// one scale of the image, e.g. the picture as shown on screen.

export const MIN_SIDE = 0.03; // of the image: the smallest box a drag leaves
const DIGITS = 4; // fractions are stored to 1/10,000 of the image

function radians(box) {
  return (number(box.angle, 0) * Math.PI) / 180;
}

export function number(value, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function round(value) {
  return Math.round(value * 10 ** DIGITS) / 10 ** DIGITS;
}

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}

// The box's sides in pixels, before it is turned.
export function sides(box, width, height) {
  return [number(box.scale_x, 1) * width, number(box.scale_y, 0.2) * height];
}

// Width and height of the turned box's outline, in pixels.
export function turnedSize(boxWidth, boxHeight, angle) {
  const cos = Math.abs(Math.cos(angle));
  const sin = Math.abs(Math.sin(angle));
  return [boxWidth * cos + boxHeight * sin, boxWidth * sin + boxHeight * cos];
}

// Where the box's text is centred, in pixels.
export function centre(box, width, height) {
  const [w, h] = sides(box, width, height);
  const [turnedW, turnedH] = turnedSize(w, h, radians(box));
  return [number(box.anchor_x, 0) * width + turnedW / 2, number(box.anchor_y, 0) * height + turnedH / 2];
}

// The box's own axes on screen: CSS turns the outline by -angle (CSS turns clockwise).
function axes(box) {
  const angle = radians(box);
  return [
    [Math.cos(angle), -Math.sin(angle)],
    [Math.sin(angle), Math.cos(angle)],
  ];
}

// The box with its centre at (x, y) pixels, kept inside the image as the schema wants
// (anchor + scale at most 1 on each axis).
export function centredAt(box, x, y, width, height) {
  const scaleX = clamp(number(box.scale_x, 1), MIN_SIDE, 1);
  const scaleY = clamp(number(box.scale_y, 0.2), MIN_SIDE, 1);
  const [turnedW, turnedH] = turnedSize(scaleX * width, scaleY * height, radians(box));
  return {
    ...box,
    scale_x: round(scaleX),
    scale_y: round(scaleY),
    anchor_x: round(clamp((x - turnedW / 2) / width, 0, 1 - scaleX)),
    anchor_y: round(clamp((y - turnedH / 2) / height, 0, 1 - scaleY)),
  };
}

// The box dragged by (dx, dy) pixels.
export function moved(box, dx, dy, width, height) {
  const [x, y] = centre(box, width, height);
  return centredAt(box, x + dx, y + dy, width, height);
}

// The box resized by dragging one of its handles ("n", "ne", "e", ... "nw") by
// (dx, dy) pixels: the drag is measured along the box's own (turned) axes and
// the opposite side stays where it was.
export function resized(box, handle, dx, dy, width, height) {
  const signX = handle.includes("e") ? 1 : handle.includes("w") ? -1 : 0;
  const signY = handle.includes("s") ? 1 : handle.includes("n") ? -1 : 0;
  const [u, v] = axes(box);
  const alongX = dx * u[0] + dy * u[1];
  const alongY = dx * v[0] + dy * v[1];
  const [w, h] = sides(box, width, height);
  const newW = clamp(w + signX * alongX, MIN_SIDE * width, width);
  const newH = clamp(h + signY * alongY, MIN_SIDE * height, height);
  const growX = ((newW - w) * signX) / 2;
  const growY = ((newH - h) * signY) / 2;
  const [x, y] = centre(box, width, height);
  const grown = { ...box, scale_x: newW / width, scale_y: newH / height };
  return centredAt(grown, x + growX * u[0] + growY * v[0], y + growX * u[1] + growY * v[1], width, height);
}

// The outline as CSS places it: left, top, width, height in percent of the
// image for the unturned box around the text's centre, then rotate(-angle).
export function outline(box, width, height) {
  const [w, h] = sides(box, width, height);
  const [x, y] = centre(box, width, height);
  return {
    left: ((x - w / 2) / width) * 100,
    top: ((y - h / 2) / height) * 100,
    width: (w / width) * 100,
    height: (h / height) * 100,
    rotate: -number(box.angle, 0),
  };
}
