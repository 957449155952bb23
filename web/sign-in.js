// Sign in with GitHub, when the server has an OAuth app (GET /v1/session says so). The token
// never reaches this page: the server keeps it in a sealed HttpOnly cookie. Signing in is a
// trip to GitHub and back in this tab, so the work on the page (the definition, the chosen
// target, the repository fields) is kept in this tab's sessionStorage for the trip and put
// back on return; nothing about the sign-in itself is stored.

const DRAFT = "envelope-export:draft";

/** What the callback's `?github=` says happened, in the builder's words. */
const OUTCOMES = {
  "signed-in": ["ok", "Signed in with GitHub."],
  denied: ["bad", "The sign-in was cancelled at GitHub; nothing was shared."],
  expired: ["bad", "That sign-in was too old or started in another tab. Sign in again."],
  failed: ["bad", "GitHub did not complete the sign-in. Try again; if it keeps failing, the server's log says why."],
};

/** {oauth, signedIn, login?, scopes?}; a server that cannot say is treated as having no sign-in. */
export async function loadSession() {
  try {
    const res = await fetch("/v1/session", { cache: "no-store", headers: { accept: "application/json" } });
    if (res.ok) return await res.json();
  } catch {
    // the server is unreachable: the token form is the way that still says so
  }
  return { oauth: false, signedIn: false };
}

/** Saves the page's work, then goes to GitHub asking for the scopes this repository needs. */
export function signIn(draft, needs) {
  try {
    sessionStorage.setItem(DRAFT, JSON.stringify(draft));
  } catch {
    // storage full or disabled: the sign-in still works, the definition must be pasted again
  }
  const q = new URLSearchParams({ private: String(Boolean(needs.private)), workflow: String(Boolean(needs.workflow)) });
  location.assign(`/auth/github/login?${q}`);
}

/** The work saved before the trip to GitHub, once (it is removed as it is read). */
export function takeDraft() {
  let raw = null;
  try {
    raw = sessionStorage.getItem(DRAFT);
    sessionStorage.removeItem(DRAFT);
  } catch {
    return null;
  }
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/** [class, message] for the `?github=` the callback returned with, or null; the address is cleaned either way. */
export function takeOutcome() {
  const q = new URLSearchParams(location.search);
  const outcome = q.get("github");
  if (outcome === null) return null;
  q.delete("github");
  const rest = q.toString();
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  return Object.hasOwn(OUTCOMES, outcome) ? OUTCOMES[outcome] : null;
}

export async function signOut() {
  const res = await fetch("/auth/github/logout", { method: "POST", cache: "no-store" });
  return res.status === 204;
}
