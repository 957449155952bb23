// YAML scalars, always double-quoted with escapes: a definition's text can never start a
// new key, a comment, an anchor or a document, whatever it contains.

// PyYAML accepts only these raw: tab, LF, CR, printable ASCII, NEL, and most of Unicode.
// Everything else — and line/paragraph separators, which YAML treats as line breaks — is escaped.
const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0" };

export function yamlStr(value: string): string {
  return (
    '"' +
    value.replace(NEEDS_ESCAPE, (ch) => SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`) +
    '"'
  );
}
