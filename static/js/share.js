// Sharing a meme: the device's own share sheet (Web Share API) where there is
// one, else the link copied to the clipboard with a visible "Link copied".
// Every `a[data-share]` on any page shares its href; without script it is a
// plain link to the meme's page.

import { toast } from "./toast.js";

export async function share(url, title) {
  if (navigator.share) {
    try {
      await navigator.share({ title, url });
      return "shared";
    } catch (error) {
      if (error.name === "AbortError") return "cancelled"; // the reader closed the sheet
      // Refused (no user gesture left, a file type it dislikes…): copy instead.
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast("Link copied");
    return "copied";
  } catch (refused) {
    // No clipboard (a page served over plain http) or permission refused.
    toast(`Copy this link: ${url}`);
    return "shown";
  }
}

document.addEventListener("click", (event) => {
  const link = event.target.closest ? event.target.closest("a[data-share]") : null;
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  share(link.href, link.dataset.shareTitle || document.title);
});
