// "Make a meme": show the chosen template, post the request, then poll its
// status and show each variant as it finishes; say plainly when fewer came out
// than asked and when a refused request may be tried again. Text goes in with
// textContent only: captions are untrusted.

import { api } from "./api.js";

const POLL_MS = 1000;
const GIVE_UP_MS = 120000;

const form = document.getElementById("make-form");
const statusLine = document.getElementById("make-status");
const results = document.getElementById("make-results");
const button = document.getElementById("make-submit");

function say(text) {
  statusLine.textContent = text;
}

// What the reader did too often, for the limit's refusal ("… — try again in 42 seconds").
function tooMany() {
  const { limitCount, limitPeriod } = form.dataset;
  if (!limitCount) return "You have asked for a lot of memes";
  return `You've asked for memes ${limitCount} time${limitCount === "1" ? "" : "s"} this ${limitPeriod}`;
}

function showPreview() {
  const select = form.elements.template;
  const chosen = select.options[select.selectedIndex];
  const image = document.getElementById("make-preview-image");
  const caption = document.getElementById("make-preview-caption");
  if (!chosen || !chosen.value || !chosen.dataset.image) {
    image.hidden = true;
    image.removeAttribute("src");
    caption.textContent = "Random: the AI picks a template for you.";
    return;
  }
  image.src = chosen.dataset.image;
  image.alt = `The blank ${chosen.textContent} template`;
  image.hidden = false;
  caption.textContent = chosen.textContent;
}

function memeCard(meme) {
  let card = results.querySelector(`[data-meme="${meme.id}"]`);
  if (!card) {
    card = document.createElement("figure");
    card.className = "make-card";
    card.dataset.meme = String(meme.id);
    results.appendChild(card);
  }
  return card;
}

function showMemes(memes) {
  for (const meme of memes) {
    const card = memeCard(meme);
    if (card.dataset.status === meme.status) continue;
    card.dataset.status = meme.status;
    card.replaceChildren();
    if (meme.status === "ready" && meme.image) {
      const link = document.createElement("a");
      link.href = meme.url;
      const image = document.createElement("img");
      image.src = meme.image;
      image.alt = meme.alt;
      image.width = 400;
      link.appendChild(image);
      card.appendChild(link);
    } else {
      const waiting = document.createElement("div");
      waiting.className = "make-waiting";
      waiting.textContent = meme.status === "failed" ? "This one did not work out." : "Rendering…";
      card.appendChild(waiting);
    }
  }
}

// The line for a finished request: all variants, some, or none. Captions the
// filters dropped never become memes; a meme that could not be drawn failed.
function outcome(job) {
  const ready = job.memes.filter((meme) => meme.status === "ready").length;
  if (ready === job.count) return `${ready} memes ready.`;
  const failed = job.memes.filter((meme) => meme.status === "failed").length;
  const filtered = job.count - job.memes.length;
  const some = ready === 0 ? `None of the ${job.count} variants came out` : `${ready} of ${job.count} variants came out`;
  if (!failed) return `${some}; the filters turned down ${ready ? "the rest" : "them all"} — try again or change the keywords.`;
  if (!filtered) return `${some}; ${ready ? "the rest" : "they"} could not be drawn — try again.`;
  return `${some}; the filters turned down some and the rest could not be drawn — try again or change the keywords.`;
}

async function poll(id, started) {
  let job;
  try {
    job = await api("GET", `/api/make/${id}/`);
  } catch (error) {
    say(error.message);
    button.disabled = false;
    return;
  }
  showMemes(job.memes);
  if (job.status === "done" || job.status === "failed") {
    say(job.status === "failed" ? `No memes this time: ${job.error}` : outcome(job));
    button.disabled = false;
    return;
  }
  if (Date.now() - started > GIVE_UP_MS) {
    say("This is taking longer than usual; your memes will also appear in your feed.");
    button.disabled = false;
    return;
  }
  const ready = job.memes.filter((meme) => meme.status === "ready").length;
  say(job.status === "queued" ? "Waiting for the meme machine…" : `Writing captions… ${ready} of ${job.count} ready.`);
  window.setTimeout(() => poll(id, started), POLL_MS);
}

async function submit(event) {
  event.preventDefault();
  const template = form.elements.template.value || null;
  const keywords = form.elements.keywords.value
    .split(",")
    .map((word) => word.trim())
    .filter((word) => word.length > 0);
  button.disabled = true;
  results.replaceChildren();
  say("Sending…");
  let job;
  try {
    job = await api("POST", "/api/make/", { template, keywords }, { tooMany: tooMany() });
  } catch (error) {
    say(error.message);
    button.disabled = false;
    return;
  }
  poll(job.id, Date.now());
}

if (form) {
  form.elements.template.addEventListener("change", showPreview);
  showPreview(); // a template the browser kept selected after a reload
  form.addEventListener("submit", submit);
}
