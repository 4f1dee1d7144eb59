// The feed, the favourites page and a meme's own page.
//
// - Cards are built with createElement and textContent only: captions,
//   template names and usernames are untrusted text.
// - The next page is requested when the reader is PREFETCH_AT cards from the
//   end, so scrolling never waits.
// - Cards far above the reader are taken out of the page and replaced by one
//   spacer of the same height; scrolling back up puts them back. The page stays
//   light however far the reader scrolls.
// - Reactions change the counts at once and roll back if the server refuses.
//
// The module exports the loaded order and a few counters for the browser
// tests, which import this same module (one instance per page).

import { api } from "./api.js";
import { toast } from "./toast.js";

const PAGE_SIZE = 10;
const PREFETCH_AT = 8; // request the next page when this many cards are left below the one being read
const KEEP_BEHIND = 6; // cards kept in the page above the one being read
const KEEP_AHEAD = 12; // and below it (more than PREFETCH_AT, so loading ahead still shows)
const RETRY_MS = [2000, 4000, 8000, 15000, 30000];

const items = new Map(); // id -> item, every meme loaded so far
const order = []; // ids in feed order
const feedBox = document.getElementById("feed");
const spacer = document.getElementById("feed-spacer");
const spacerEnd = document.getElementById("feed-spacer-end");
const statusLine = document.getElementById("feed-status");
const source = feedBox ? feedBox.dataset.source : null;
let first = 0; // the cards in the page are order[first] … order[last - 1]
let last = 0;
const heights = new Map(); // id -> height in px (with margin) when it was last taken out below
let nextUrl = null;
let loading = false;
let retries = 0;
let waiting = false; // a retry is set: scrolling asks nothing until it fires
let generation = 0; // bumps on reload so late answers of an old feed are dropped
const stats = { duplicates: 0, pages: 0, leftAtRequest: [] }; // for the browser tests

// --- building and painting cards ---------------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function actionButton(kind, action, count) {
  const button = el("button", kind);
  button.type = "button";
  button.dataset.action = action;
  button.setAttribute("aria-pressed", "false");
  const number = el("span", "count", "0");
  number.dataset.count = count;
  button.append(number);
  return button;
}

function createCard(item) {
  const card = el("article", "card");
  card.tabIndex = -1;
  card.dataset.id = String(item.id);
  const media = el("div", "media");
  const img = document.createElement("img");
  img.alt = item.alt;
  img.loading = "lazy";
  img.decoding = "async";
  if (item.width && item.height) {
    img.width = item.width;
    img.height = item.height;
    media.style.aspectRatio = `${item.width} / ${item.height}`;
  } else {
    media.style.aspectRatio = "1 / 1";
  }
  if (item.image) img.src = item.image;
  media.append(item.image && item.variants.length ? picture(item, img) : img);
  card.append(media, cardMeta(item), cardActions());
  paint(card, item);
  return card;
}

// The feed's column: 574 CSS px on a desktop, the screen less 18 px on a phone
// (main's padding and the card's border; static/css/site.css).
const CARD_SIZES = "(max-width: 600px) calc(100vw - 18px), 574px";

// The lighter WebP copies for the browser to choose from by the width it draws
// at, and the image itself when no copy is full width (as the pages' srcset
// filter, feed/templatetags/meme_images.py). A browser without WebP shows the img.
function picture(item, img) {
  const candidates = item.variants.map((variant) => `${variant.url} ${variant.width}w`);
  if (!item.variants.some((variant) => variant.width === item.width)) {
    candidates.push(`${item.image} ${item.width}w`);
  }
  const source = document.createElement("source");
  source.type = "image/webp";
  source.srcset = candidates.join(", ");
  source.sizes = CARD_SIZES;
  const frame = document.createElement("picture");
  frame.append(source, img);
  return frame;
}

// The label, the template and the links sit under the image, never on it:
// a label on the image hides caption letters.
function cardMeta(item) {
  const meta = el("div", "card-meta");
  const template = el("a", "template-link", item.template.name);
  template.href = `/?template=${encodeURIComponent(item.template.slug)}`;
  const links = el("span", "card-links");
  const share = el("a", "share", "Share");
  share.href = item.url;
  share.dataset.share = "";
  share.dataset.shareTitle = item.alt;
  links.append(share);
  if (item.image) {
    const download = el("a", "download", "Download");
    download.href = item.image;
    download.download = downloadName(item);
    links.append(download);
  }
  meta.append(el("span", "ai-badge", "AI-made"), template, links);
  return meta;
}

// "success-kid-1234.jpg", as feed.views.download_name names the meme page's download.
function downloadName(item) {
  const extension = new URL(item.image, window.location.href).pathname.match(/\.[a-z0-9]+$/i);
  return `${item.template.slug}-${item.id}${extension ? extension[0].toLowerCase() : ".jpg"}`;
}

function cardActions() {
  const actions = el("div", "actions");
  const report = el("button", "report", "Report");
  report.type = "button";
  report.dataset.action = "report";
  actions.append(
    actionButton("like", "like", "likes"),
    actionButton("dislike", "dislike", "dislikes"),
    actionButton("fav", "favourite", "favourites"),
    report,
  );
  return actions;
}

function paint(card, item) {
  const set = (action, pressed, label) => {
    const button = card.querySelector(`[data-action="${action}"]`);
    if (!button) return;
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
    button.setAttribute("aria-label", label);
  };
  card.querySelectorAll("[data-count]").forEach((number) => {
    number.textContent = String(item[number.dataset.count]);
  });
  set("like", item.my_reaction === 1, `Like (${item.likes})`);
  set("dislike", item.my_reaction === -1, `Dislike (${item.dislikes})`);
  set("favourite", item.favourited, `Favourite (${item.favourites})`);
}

function cardOf(id) {
  return document.querySelector(`.card[data-id="${id}"]`);
}

function repaint(id) {
  const card = cardOf(id);
  if (card) paint(card, items.get(id));
}

// --- loading pages -------------------------------------------------------------------

function firstUrl() {
  if (source === "favourites") return `/api/favourites/?page_size=${PAGE_SIZE}`;
  const params = new URLSearchParams({ page_size: String(PAGE_SIZE), sort: sortSelect.value });
  if (templateSelect.value) params.set("template", templateSelect.value);
  return `/api/feed/?${params}`;
}

function say(text) {
  statusLine.textContent = text;
}

async function loadMore() {
  if (loading || waiting || !nextUrl) return;
  loading = true;
  const mine = generation;
  feedBox.setAttribute("aria-busy", "true");
  try {
    const page = await api("GET", nextUrl);
    if (mine !== generation) return;
    stats.pages += 1;
    nextUrl = page.next;
    append(page.results);
    if (page.results.length) retries = 0; // an empty page keeps backing off
    afterPage(page);
  } catch (error) {
    if (mine !== generation) return;
    say(`${error.message} Retrying…`);
    retryLater();
  } finally {
    if (mine === generation) {
      loading = false;
      feedBox.setAttribute("aria-busy", "false");
    }
  }
  if (mine === generation) onScroll();
}

function afterPage(page) {
  if (source === "favourites") {
    if (!order.length) say("No favourites yet: press ☆ on a meme to keep it here.");
    else say(page.next ? "" : "That is all your favourites.");
    return;
  }
  if (page.results.length) {
    say("");
    return;
  }
  // The feed never ends: an empty page means the AI is making more for this reader.
  say(order.length ? "You have seen every meme for now. The AI is making more…" : "The AI is making memes for you…");
  retryLater();
}

function retryLater() {
  const wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
  retries += 1;
  waiting = true;
  const mine = generation;
  setTimeout(() => {
    if (mine !== generation) return;
    waiting = false;
    loadMore();
  }, wait);
}

function append(results) {
  // New cards go into the page only if the page reaches the end of the feed;
  // otherwise they wait in `order` until the reader scrolls down to them.
  const atEnd = last === order.length;
  const fragment = document.createDocumentFragment();
  for (const item of results) {
    if (items.has(item.id)) {
      stats.duplicates += 1;
      continue;
    }
    items.set(item.id, item);
    order.push(item.id);
    if (atEnd) fragment.append(createCard(item));
  }
  feedBox.insertBefore(fragment, spacerEnd);
  if (atEnd) last = order.length;
}

function reload() {
  generation += 1;
  loading = false;
  waiting = false;
  retries = 0;
  items.clear();
  order.length = 0;
  first = 0;
  last = 0;
  heights.clear();
  feedBox.querySelectorAll(".card").forEach((card) => card.remove());
  spacer.style.height = "0px";
  spacerEnd.style.height = "0px";
  window.scrollTo(0, 0);
  say("");
  nextUrl = firstUrl();
  loadMore();
}

// --- keeping the page light -------------------------------------------------------------

function renderedCards() {
  return feedBox.querySelectorAll(".card");
}

function readingIndex(cards) {
  // The first card whose bottom is still on screen is the one being read.
  for (let i = 0; i < cards.length; i += 1) {
    if (cards[i].getBoundingClientRect().bottom > 0) return first + i;
  }
  return first + cards.length - 1;
}

function unloadAbove(cards, reading) {
  const extra = reading - first - KEEP_BEHIND;
  if (extra < 4) return;
  // Measure everything before changing anything: a layout read between the
  // removal and the spacer would clamp the scroll position to a shorter page.
  const height = spacer.offsetHeight + cards[extra].offsetTop - cards[0].offsetTop;
  spacer.style.height = `${height}px`;
  for (let i = 0; i < extra; i += 1) cards[i].remove();
  first += extra;
}

function restoreAbove(cards, reading) {
  if (first === 0 || reading - first >= 2) return;
  const count = Math.min(first, KEEP_BEHIND);
  const fragment = document.createDocumentFragment();
  for (let i = first - count; i < first; i += 1) fragment.append(createCard(items.get(order[i])));
  const anchor = cards[0];
  const before = anchor.offsetTop;
  const spacerHeight = spacer.offsetHeight;
  feedBox.insertBefore(fragment, anchor); // the page only grows here: nothing is clamped
  const grown = anchor.offsetTop - before;
  first -= count;
  const left = spacerHeight - grown;
  spacer.style.height = `${Math.max(left, 0)}px`;
  if (first === 0 && left !== 0) window.scrollBy(0, -left); // heights changed since (a resize)
  if (first > 0) onScroll(); // a long jump up: keep restoring, a few cards a frame
}

function unloadBelow(cards, reading) {
  const extra = last - (reading + KEEP_AHEAD + 1);
  if (extra < 4) return;
  const gap = parseFloat(getComputedStyle(cards[0]).marginBottom) || 0;
  let removed = 0;
  const gone = Array.from(cards).slice(cards.length - extra);
  for (const card of gone) {
    const height = card.offsetHeight + gap;
    heights.set(Number(card.dataset.id), height);
    removed += height;
  }
  spacerEnd.style.height = `${spacerEnd.offsetHeight + removed}px`;
  gone.forEach((card) => card.remove());
  last -= extra;
}

function restoreBelow(reading) {
  if (last >= order.length || last - reading > 4) return;
  const count = Math.min(order.length - last, KEEP_AHEAD);
  const fragment = document.createDocumentFragment();
  let known = 0;
  for (let i = last; i < last + count; i += 1) {
    fragment.append(createCard(items.get(order[i])));
    known += heights.get(order[i]) || 0;
  }
  // Below the reader: the spacer need not match to the pixel, nothing on screen moves.
  const spacerHeight = spacerEnd.offsetHeight;
  feedBox.insertBefore(fragment, spacerEnd);
  spacerEnd.style.height = `${Math.max(spacerHeight - known, 0)}px`;
  last += count;
  if (last < order.length && last - reading <= 4) onScroll();
}

let scheduled = false;

function onScroll() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    const cards = renderedCards();
    if (!cards.length) return;
    const reading = readingIndex(cards);
    const left = order.length - 1 - reading;
    if (left <= PREFETCH_AT) {
      if (!loading && nextUrl) stats.leftAtRequest.push(left);
      loadMore();
    }
    unloadAbove(cards, reading);
    restoreAbove(renderedCards(), reading);
    unloadBelow(renderedCards(), reading);
    restoreBelow(reading);
  });
}

// --- reactions -----------------------------------------------------------------------

const pending = new Map(); // id -> requests in flight, so only the last answer repaints

function reactionAfter(item, value) {
  const changed = { ...item };
  if (item.my_reaction === 1) changed.likes -= 1;
  if (item.my_reaction === -1) changed.dislikes -= 1;
  if (value === 1) changed.likes += 1;
  if (value === -1) changed.dislikes += 1;
  changed.my_reaction = value;
  return changed;
}

function favouriteAfter(item, on) {
  return { ...item, favourited: on, favourites: item.favourites + (on ? 1 : -1) };
}

async function change(id, optimistic, method, url, body) {
  const item = items.get(id);
  const before = { ...item };
  Object.assign(item, optimistic);
  repaint(id);
  pending.set(id, (pending.get(id) || 0) + 1);
  try {
    const fresh = await api(method, url, body);
    if (pending.get(id) === 1) {
      Object.assign(item, fresh);
      repaint(id);
    }
  } catch (error) {
    Object.assign(item, before);
    repaint(id);
    toast(error.message);
  } finally {
    pending.set(id, pending.get(id) - 1);
  }
}

function react(id, value) {
  const item = items.get(id);
  const url = `/api/memes/${id}/reaction/`;
  if (value === 0) return change(id, reactionAfter(item, 0), "DELETE", url);
  return change(id, reactionAfter(item, value), "PUT", url, { value });
}

function toggle(id, action) {
  const item = items.get(id);
  if (action === "like") return react(id, item.my_reaction === 1 ? 0 : 1);
  if (action === "dislike") return react(id, item.my_reaction === -1 ? 0 : -1);
  if (action === "favourite") {
    const on = !item.favourited;
    return change(id, favouriteAfter(item, on), on ? "PUT" : "DELETE", `/api/memes/${id}/favourite/`);
  }
  if (action === "report") return askReport(id);
  return null;
}

function likeWithHeart(card) {
  const id = Number(card.dataset.id);
  const heart = el("span", "heart");
  heart.setAttribute("aria-hidden", "true");
  heart.addEventListener("animationend", () => heart.remove());
  card.querySelector(".media").append(heart);
  // A double-click only ever likes: doing it again never takes the like back.
  if (items.get(id).my_reaction !== 1) react(id, 1);
}

const reportDialog = document.getElementById("report-dialog");

function askReport(id) {
  if (!reportDialog) return;
  reportDialog.returnValue = "";
  reportDialog.showModal();
  reportDialog.addEventListener(
    "close",
    async () => {
      if (reportDialog.returnValue !== "report") return;
      const reason = reportDialog.querySelector('input[name="reason"]:checked').value;
      try {
        await api("POST", `/api/memes/${id}/report/`, { reason });
        toast("Thank you: the moderators will take a look.");
      } catch (error) {
        toast(error.message);
      }
    },
    { once: true },
  );
}

// --- events ---------------------------------------------------------------------------

function cardFrom(target) {
  const card = target.closest ? target.closest(".card[data-id]") : null;
  return card && items.has(Number(card.dataset.id)) ? card : null;
}

document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest("button[data-action]") : null;
  const card = button ? cardFrom(button) : null;
  if (card) toggle(Number(card.dataset.id), button.dataset.action);
});

let lastTap = { time: 0, card: null };
document.addEventListener("dblclick", (event) => {
  const card = event.target.closest && event.target.closest(".media") ? cardFrom(event.target) : null;
  if (!card || Date.now() - lastTap.time < 600) return; // a touch double-tap was handled already
  event.preventDefault();
  likeWithHeart(card);
});
document.addEventListener("pointerup", (event) => {
  if (event.pointerType !== "touch") return;
  const card = event.target.closest && event.target.closest(".media") ? cardFrom(event.target) : null;
  if (!card) return;
  const now = Date.now();
  if (lastTap.card === card && now - lastTap.time < 350) {
    likeWithHeart(card);
    lastTap = { time: now, card: null };
  } else {
    lastTap = { time: now, card };
  }
});

function focusCard(step) {
  const cards = Array.from(renderedCards());
  if (!cards.length) return;
  const current = cards.indexOf(document.activeElement.closest ? document.activeElement.closest(".card") : null);
  let index = current === -1 ? readingIndex(cards) - first : current + step;
  index = Math.max(0, Math.min(cards.length - 1, index));
  cards[index].focus({ preventScroll: true });
  cards[index].scrollIntoView({ block: "start", behavior: "auto" });
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea, dialog, [contenteditable]")) return;
  const card = document.activeElement && document.activeElement.closest ? cardFrom(document.activeElement) : null;
  const keys = {
    j: () => focusCard(1),
    k: () => focusCard(-1),
    l: () => card && toggle(Number(card.dataset.id), "like"),
    d: () => card && toggle(Number(card.dataset.id), "dislike"),
    f: () => card && toggle(Number(card.dataset.id), "favourite"),
    o: () => card && window.location.assign(items.get(Number(card.dataset.id)).url),
  };
  const run = keys[event.key];
  if (run) {
    event.preventDefault();
    run();
  }
});

// --- start ------------------------------------------------------------------------------

// A meme's own page: its card is rendered by the server; read its state from it.
const single = document.querySelector("article.card.meme-page[data-id]");
if (single) {
  const data = single.dataset;
  const id = Number(data.id);
  items.set(id, {
    id,
    likes: Number(data.likes),
    dislikes: Number(data.dislikes),
    favourites: Number(data.favourites),
    my_reaction: Number(data.myReaction),
    favourited: data.favourited === "true",
    url: window.location.href,
  });
  paint(single, items.get(id));
  single.querySelector(".media").addEventListener("dragstart", (event) => event.preventDefault());
}

const howto = document.getElementById("howto");
if (howto) {
  if (window.location.hash === "#howto") howto.hidden = false;
  document.getElementById("howto-close").addEventListener("click", () => {
    howto.hidden = true;
    api("PATCH", "/api/me/settings/", { howto_seen: true }).catch(() => {});
  });
}

const templateSelect = document.getElementById("feed-template");
const sortSelect = document.getElementById("feed-sort");

// The feed's choice (template or Random, and sort) lives in the page's URL, so
// a reload, back/forward and a shared link show the same feed. The server
// renders the toolbar with the choice selected (feed.views.feed_page); a change
// here pushes a new URL, and back/forward read it again by the same rule:
// ?template=random is every template, ?template=SLUG that one, no choice (or a
// slug that is gone) the reader's preferred template.
const RANDOM = "random";
let preferred = feedBox ? feedBox.dataset.preferred || "" : "";

function offers(select, value) {
  return value !== null && Array.from(select.options).some((option) => option.value === value);
}

function templateInUrl() {
  const asked = new URLSearchParams(window.location.search).get("template");
  if (asked === RANDOM) return "";
  return offers(templateSelect, asked) ? asked : null;
}

function showTheUrlsChoice() {
  const asked = templateInUrl();
  templateSelect.value = asked === null ? preferred : asked;
  const sort = new URLSearchParams(window.location.search).get("sort");
  sortSelect.value = offers(sortSelect, sort) ? sort : "hot";
}

function rememberInUrl(select) {
  const params = new URLSearchParams(window.location.search);
  if (select === templateSelect) params.set("template", templateSelect.value || RANDOM);
  else params.set("sort", sortSelect.value);
  window.history.pushState(null, "", `/?${params}`);
}

// The preferred template changed in the settings menu (site.js): the feed
// follows it unless its URL holds another explicit choice, which it names in
// event.detail.keptChoice for the menu to say so.
function followThePreferredTemplate(event) {
  preferred = event.detail.slug || "";
  const asked = templateInUrl();
  if (asked === null) {
    if (templateSelect.value !== preferred) {
      templateSelect.value = preferred;
      reload();
    }
  } else if (asked !== preferred) {
    event.detail.keptChoice = templateSelect.selectedOptions[0].textContent;
  }
}

function followTheToolbar() {
  for (const select of [templateSelect, sortSelect]) {
    select.addEventListener("change", () => {
      rememberInUrl(select);
      reload();
    });
  }
  window.addEventListener("popstate", () => {
    const before = `${templateSelect.value} ${sortSelect.value}`;
    showTheUrlsChoice();
    if (`${templateSelect.value} ${sortSelect.value}` !== before) reload(); // not for a #fragment
  });
  document.addEventListener("memesite:preferred-template", followThePreferredTemplate);
}

if (feedBox) {
  if (templateSelect && sortSelect) followTheToolbar();
  document.addEventListener("memesite:reload-feed", reload); // from the settings menu
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", onScroll, { passive: true });
  nextUrl = firstUrl();
  loadMore();
}

export { order, stats };
