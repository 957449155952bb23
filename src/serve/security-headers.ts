// The headers every answer carries, the page's and the API's, errors included — also those
// written to the socket directly (client-errors.ts). The page replaces the CSP with its own.
import { API_CSP } from "./assets.js";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "x-frame-options": "DENY",
  "content-security-policy": API_CSP,
};
