// Every page: sharing links, the settings menu (theme, preferred template,
// reload, how-to), saved on the server so it follows the reader across
// sign-ins and devices, and signing out the reader's API apps.

import { api } from "./api.js";
import "./share.js";
import { toast } from "./toast.js";

// A meme's lighter copy that fails to load (lost, or not made yet) gives way to
// the meme's own image: without its <source> a <picture> shows its <img>'s src.
function giveWayToTheImage(image) {
  const frame = image.parentElement;
  if (frame && frame.tagName === "PICTURE") frame.querySelectorAll("source").forEach((source) => source.remove());
}

document.addEventListener(
  "error",
  (event) => {
    if (event.target instanceof HTMLImageElement) giveWayToTheImage(event.target);
  },
  true, // error events do not bubble; the page's own listener sees them on the way down
);
// Modules run once the page is parsed: a copy that failed before then sent its
// error to no one, so the pictures already broken give way now.
document.querySelectorAll("picture img").forEach((image) => {
  if (image.complete && image.naturalWidth === 0) giveWayToTheImage(image);
});

function settingsMenu(menu) {
  const status = document.getElementById("settings-status");

  function say(text) {
    status.textContent = text;
  }

  async function save(change, undo, saved = () => "Saved.") {
    say("Saving…");
    try {
      await api("PATCH", "/api/me/settings/", change);
      say(saved());
    } catch (error) {
      undo();
      say(error.message);
    }
  }

  menu.querySelectorAll('input[name="theme"]').forEach((radio) => {
    radio.addEventListener("change", () => {
      const root = document.documentElement;
      const before = root.dataset.theme;
      root.dataset.theme = radio.value;
      save({ theme: radio.value }, () => {
        root.dataset.theme = before;
        const previous = menu.querySelector(`input[name="theme"][value="${before}"]`);
        if (previous) previous.checked = true;
      });
    });
  });

  const preferred = document.getElementById("preferred-template");
  let preferredBefore = preferred.value;
  preferred.addEventListener("change", () => {
    const undoTo = preferredBefore;
    preferredBefore = preferred.value;
    save(
      { preferred_template: preferred.value || null },
      () => {
        preferred.value = undoTo;
        preferredBefore = undoTo;
      },
      () => preferredSaved(preferred.value),
    );
  });

  document.getElementById("reload-feed").addEventListener("click", () => {
    menu.open = false;
    // The feed and favourites reload in place (feed.js listens); other pages go to the feed.
    if (document.getElementById("feed")) document.dispatchEvent(new CustomEvent("memesite:reload-feed"));
    else window.location.href = "/";
  });

  document.getElementById("show-howto").addEventListener("click", () => {
    menu.open = false;
    const howto = document.getElementById("howto");
    if (!howto) {
      window.location.href = "/#howto";
      return;
    }
    howto.hidden = false;
    howto.scrollIntoView({ block: "start" });
    document.getElementById("howto-close").focus();
  });

  document.getElementById("revoke-token").addEventListener("click", async () => {
    try {
      await api("DELETE", "/api/auth/token/");
      status.textContent = "API apps signed out.";
      toast("API apps signed out: your token no longer works.");
    } catch (error) {
      status.textContent = error.message;
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
}

// An open feed (feed.js) follows the new preferred template, unless its URL
// holds another explicit choice: then it names that choice and the menu says so.
function preferredSaved(slug) {
  const told = { slug, keptChoice: null };
  document.dispatchEvent(new CustomEvent("memesite:preferred-template", { detail: told }));
  if (told.keptChoice === null) return "Saved.";
  return `Saved. Your feed shows ${told.keptChoice}; choose the template above to switch.`;
}

const menu = document.getElementById("settings-menu");
if (menu) settingsMenu(menu);
