// One short message at the bottom of the page (the #toast box in base.html),
// read out by screen readers (role="status"), gone after a few seconds.

const SHOWN_MS = 4000;
let timer = 0;

export function toast(text) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => {
    box.hidden = true;
  }, SHOWN_MS);
}
