// Every page: the API helper, the toast, and the settings menu (theme,
// preferred template, reload, how-to), saved on the server so they follow the
// reader across sign-ins and devices; and signing out the reader's API apps.
"use strict";

(function () {
  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function messageOf(body, status) {
    if (status === 429) return "Slow down a little: too many requests. Try again in a minute.";
    if (status === 401 || status === 403) return "Please sign in again.";
    if (!body) return "Something went wrong; please try again.";
    if (typeof body.detail === "string") return body.detail;
    const parts = Object.values(body).flat().filter((part) => typeof part === "string");
    return parts.join(" ") || "Something went wrong; please try again.";
  }

  async function api(method, url, body) {
    const headers = { Accept: "application/json", "X-CSRFToken": csrfToken() };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(url, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try {
      data = await response.json();
    } catch (ignored) {
      data = null;
    }
    if (!response.ok) {
      const error = new Error(messageOf(data, response.status));
      error.status = response.status;
      throw error;
    }
    return data;
  }

  const toastBox = document.getElementById("toast");
  let toastTimer = 0;

  function toast(text) {
    if (!toastBox) return;
    toastBox.textContent = text;
    toastBox.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      toastBox.hidden = true;
    }, 4000);
  }

  window.memesite = { api, toast };

  const menu = document.getElementById("settings-menu");
  if (!menu) return;
  const status = document.getElementById("settings-status");

  function say(text) {
    status.textContent = text;
  }

  async function save(change, undo) {
    say("Saving…");
    try {
      await api("PATCH", "/api/me/settings/", change);
      say("Saved.");
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
    save({ preferred_template: preferred.value || null }, () => {
      preferred.value = undoTo;
      preferredBefore = undoTo;
    });
    document.dispatchEvent(new CustomEvent("memesite:preferred-template", { detail: preferred.value }));
  });

  document.getElementById("reload-feed").addEventListener("click", () => {
    menu.open = false;
    if (window.memesiteFeed && window.memesiteFeed.reload) window.memesiteFeed.reload();
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
})();
