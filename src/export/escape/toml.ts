// TOML basic strings. TOML holds Unicode scalar values only, so a lone surrogate (possible in
// JSON) cannot be represented: it becomes U+FFFD (the loss report calls such a field approximated).
const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

export function tomlStr(value: string): string {
  const scalar = value.replace(LONE_SURROGATE, "\ufffd");
  return '"' + scalar.replace(NEEDS_ESCAPE, (ch) => SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`) + '"';
}
