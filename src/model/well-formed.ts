// JSON can hold a lone surrogate (`"\ud800"`), half of a character; no Unicode text can:
// not UTF-8 files, TOML, terminals, nor a model provider's API. The team model therefore
// holds every definition string with U+FFFD in place of each lone surrogate (as
// String.prototype.toWellFormed does), and the loss report calls such fields approximated.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function hasLoneSurrogate(text: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(text);
}

export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\ufffd");
}

/** A deep copy of JSON data with every string and key well-formed (plain objects, own keys only). */
export function wellFormedDeep(value: unknown): unknown {
  if (typeof value === "string") return wellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormedDeep);
  if (value !== null && typeof value === "object") {
    // fromEntries defines own properties, so a key "__proto__" stays data.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormedDeep(v)]));
  }
  return value;
}

/** Whether any string or key in JSON data holds a lone surrogate. */
export function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return hasLoneSurrogate(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  if (value !== null && typeof value === "object") return Object.entries(value).some(([k, v]) => hasLoneSurrogate(k) || holdsLoneSurrogate(v));
  return false;
}
