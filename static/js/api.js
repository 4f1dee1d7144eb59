// The one way the pages talk to the API: JSON in and out, Django's CSRF token
// on every request, and every refusal turned into a sentence a reader can act
// on (with when to try again, from the Retry-After header of a 429).

const SOMETHING_WRONG = "Something went wrong; please try again.";
// DRF's own wording for a throttled request says nothing a reader needs.
const DRF_THROTTLED = /^Request was throttled/;
// "…; please try again later." at the end of a server's message, replaced by the real wait.
const TRY_AGAIN_CLAUSE = /[\s;,.—-]*(?:please\s+)?try again\b.*$/i;

export class ApiError extends Error {
  constructor(message, status, retryAfter) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.retryAfter = retryAfter; // seconds, or null when the server did not say
  }
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// Seconds to wait from a Retry-After header: a number of seconds or an HTTP date.
export function retryAfterSeconds(header) {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

// "42 seconds", "1 minute", "3 minutes", "2 hours".
export function waitText(seconds) {
  const plural = (count, unit) => `${count} ${unit}${count === 1 ? "" : "s"}`;
  if (seconds < 60) return plural(Math.max(seconds, 1), "second");
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), "minute");
  return plural(Math.ceil(seconds / 3600), "hour");
}

function detailOf(body) {
  return body && typeof body.detail === "string" ? body.detail : "";
}

// A 429 in plain words. ``tooMany`` says what the reader did too often, for
// refusals whose own message is DRF's generic one.
function refusal(body, retryAfter, tooMany) {
  const detail = detailOf(body);
  const said = detail && !DRF_THROTTLED.test(detail) ? detail : tooMany;
  if (retryAfter === null) return said === detail ? detail : `${said}: try again in a minute.`;
  const what = said.replace(TRY_AGAIN_CLAUSE, "").replace(/[\s.;,]+$/, "");
  return `${what} — try again in ${waitText(retryAfter)}.`;
}

function fieldProblems(body) {
  return Object.entries(body)
    .map(([field, problems]) => {
      const text = [].concat(problems).filter((part) => typeof part === "string").join(" ");
      if (!text || field === "detail" || field === "non_field_errors") return text;
      return `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, " ")}: ${text}`;
    })
    .filter((text) => text)
    .join(" ");
}

export function errorMessage(body, status, retryAfter = null, tooMany = "You are going a little fast") {
  if (status === 429) return refusal(body, retryAfter, tooMany);
  if (status === 401 || status === 403) return "Please sign in again.";
  if (!body || typeof body !== "object") return SOMETHING_WRONG;
  return detailOf(body) || fieldProblems(body) || SOMETHING_WRONG;
}

// fetch() with the CSRF token and JSON both ways; resolves to the answer's body
// and rejects with an ApiError whose message can be shown as it is.
export async function api(method, url, body, { tooMany } = {}) {
  const headers = { Accept: "application/json", "X-CSRFToken": csrfToken() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (offline) {
    throw new ApiError("Cannot reach memesite; check your connection.", 0, null);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const wait = retryAfterSeconds(response.headers.get("Retry-After"));
    throw new ApiError(errorMessage(data, response.status, wait, tooMany), response.status, wait);
  }
  return data;
}
