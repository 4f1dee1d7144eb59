// "Make a meme": post the request, then poll its status and show each variant
// as it finishes. Text goes in with textContent only: captions are untrusted.
"use strict";

(function () {
  const form = document.getElementById("make-form");
  if (!form) return;
  const statusLine = document.getElementById("make-status");
  const results = document.getElementById("make-results");
  const button = document.getElementById("make-submit");
  const POLL_MS = 1000;
  const GIVE_UP_MS = 120000;

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function say(text) {
    statusLine.textContent = text;
  }

  function errorText(body) {
    if (!body) return "Something went wrong; please try again.";
    if (body.detail) return body.detail;
    return Object.entries(body)
      .map(([field, problems]) => `${field}: ${[].concat(problems).join(" ")}`)
      .join(" ");
  }

  function showMemes(memes) {
    for (const meme of memes) {
      let card = results.querySelector(`[data-meme="${meme.id}"]`);
      if (!card) {
        card = document.createElement("figure");
        card.className = "make-card";
        card.dataset.meme = String(meme.id);
        results.appendChild(card);
      }
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

  async function poll(id, started) {
    const response = await fetch(`/api/make/${id}/`, { credentials: "same-origin" });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      say(errorText(body));
      button.disabled = false;
      return;
    }
    showMemes(body.memes);
    const ready = body.memes.filter((meme) => meme.status === "ready").length;
    if (body.status === "done" || body.status === "failed") {
      say(body.status === "failed" ? `No memes this time: ${body.error}` : `${ready} memes ready.`);
      button.disabled = false;
      return;
    }
    if (Date.now() - started > GIVE_UP_MS) {
      say("This is taking longer than usual; your memes will also appear in your feed.");
      button.disabled = false;
      return;
    }
    say(body.status === "queued" ? "Waiting for the meme machine…" : `Writing captions… ${ready} of ${body.count} ready.`);
    window.setTimeout(() => poll(id, started), POLL_MS);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const template = form.elements.template.value || null;
    const keywords = form.elements.keywords.value
      .split(",")
      .map((word) => word.trim())
      .filter((word) => word.length > 0);
    button.disabled = true;
    results.replaceChildren();
    say("Sending…");
    const response = await fetch("/api/make/", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ template, keywords }),
    });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      say(errorText(body));
      button.disabled = false;
      return;
    }
    poll(body.id, Date.now());
  });
})();
