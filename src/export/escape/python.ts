// Python string literals. Everything a definition says reaches Python code only through
// these functions, so no text can end a literal early, inject code, or hide in the source
// (bidi overrides, line separators and other invisible characters are written as escapes).

/**
 * Characters that must not appear raw in generated source: invisible, reordering or
 * line-breaking, and the noncharacters U+FFFE/U+FFFF, which YAML readers refuse even in a
 * comment (`pyComment` text also goes into YAML comments).
 */
const UNSAFE_RAW = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", '"': '\\"' };

function escapeChar(ch: string): string {
  const short = SHORT_ESCAPES[ch];
  if (short) return short;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** A double-quoted Python `str` literal equal to `value` (ast.literal_eval round-trips it). */
export function pyStr(value: string): string {
  return '"' + value.replace(/[\\"\n\r\t]/g, escapeChar).replace(UNSAFE_RAW, escapeChar) + '"';
}

/**
 * Columns a raw character takes in ruff's line-length check, which counts East Asian wide
 * characters (CJK, most emoji) as two. Everything from U+1100 on counts as two here: an
 * overestimate for some scripts, never an underestimate, so a bounded line stays bounded.
 */
function columns(ch: string): number {
  return ch.codePointAt(0)! < 0x1100 ? 1 : 2;
}

/** Columns of a piece of a string literal: escapes as written, raw characters by width. */
function literalColumns(ch: string): number {
  // Printable ASCII but `"` and `\`: written raw, one column. The common case, answered
  // without pyStr's two regular expressions (they were a tenth of a large team's export).
  const code = ch.charCodeAt(0);
  if (code >= 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c) return 1;
  const escaped = pyStr(ch).length - 2;
  return escaped > ch.length ? escaped : columns(ch);
}

/**
 * A string literal that keeps generated lines under the linter's limit: short strings as one
 * literal, long ones as parenthesized implicit concatenation, broken after spaces where
 * possible (never inside a character), each piece's literal at most `max` columns (wide
 * characters count two, as ruff counts them).
 */
export function pyStrWrapped(value: string, max = 72, parenthesized = false): string {
  if (literalWidth(value) <= max) return parenthesized ? `(\n    ${pyStr(value)}\n)` : pyStr(value);
  const pieces: string[] = [];
  let current = "";
  // The literal width of `current`, kept as characters are added (each code point escapes
  // on its own), so a long value costs one pass, not one escape of the piece per character.
  let width = 2;
  let lastSpace = -1;
  for (const ch of value) {
    const chWidth = literalColumns(ch);
    if (width + chWidth > max && current !== "") {
      if (lastSpace > 0 && lastSpace < current.length) {
        pieces.push(current.slice(0, lastSpace));
        current = current.slice(lastSpace);
      } else {
        pieces.push(current);
        current = "";
      }
      width = 2;
      for (const c of current) width += literalColumns(c);
      lastSpace = -1;
    }
    current += ch;
    width += chWidth;
    if (ch === " " || ch === "\n") lastSpace = current.length;
  }
  if (current !== "") pieces.push(current);
  return "(\n" + pieces.map((p) => "    " + pyStr(p)).join("\n") + "\n)";
}

/** The columns a string's literal takes (escapes as written, wide characters two). */
function literalWidth(value: string): number {
  let width = 2;
  for (const ch of value) width += literalColumns(ch);
  return width;
}

/**
 * `key: value`, an entry of a dict of strings at `indent` columns followed by a comma: on
 * one line when that fits ruff's `limit`, else with the key wrapped as `pyStrWrapped` does
 * and the value parenthesized (and wrapped), the layout ruff's formatter keeps.
 */
export function pyEntry(key: string, value: string, indent = 4, limit = 100): string {
  const k = pyStrWrapped(key);
  const oneLine = !k.includes("\n") && indent + literalWidth(key) + 2 + literalWidth(value) + 1 <= limit;
  return `${k}: ${oneLine ? pyStr(value) : pyStrWrapped(value, 72, true)}`;
}

/** Columns a dict entry of JSON-like data may take: within the limit ten levels deep. */
const DICT_ENTRY = 60;

/** A Python literal for JSON-like data (str, number, bool, None, list, dict). */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  // Wrapped, so a long default or enum value keeps the generated line under the limit.
  if (typeof value === "string") return pyStrWrapped(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as a Python literal`);
    return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? String(value) : String(value).replace(/^(-?)(\d+)e/, "$1$2.0e");
  }
  if (Array.isArray(value)) return "[" + value.map(pyLiteral).join(", ") + "]";
  if (typeof value === "object") {
    // The formatter puts each entry on a line of its own at some depth: a key and a string
    // value too wide to share one (more than DICT_ENTRY columns) take a line each.
    const entry = ([k, v]: [string, unknown]) =>
      typeof v === "string" && literalWidth(k) + literalWidth(v) > DICT_ENTRY
        ? `${pyStrWrapped(k, DICT_ENTRY)}: ${pyStrWrapped(v, DICT_ENTRY, true)}`
        : `${pyStrWrapped(k, DICT_ENTRY)}: ${pyLiteral(v)}`;
    return "{" + Object.entries(value as Record<string, unknown>).map(entry).join(", ") + "}";
  }
  throw new Error(`cannot write a ${typeof value} as a Python literal`);
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Asserts that a name chosen by the model's namer is a plain identifier; never escapes. */
export function pyIdent(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not a Python identifier: ${JSON.stringify(name)}`);
  return name;
}

/**
 * Text for a `# comment`: one line, no control or invisible characters, at most `max`
 * columns (wide characters count two), cut between characters with `…`. 86 columns keep a
 * comment indented up to 12 spaces within the 100 the generated projects lint with.
 */
export function pyComment(text: string, max = 86): string {
  const flat = text.replace(/\r\n|\r|\n/g, " ").replace(UNSAFE_RAW, "?");
  let width = 0;
  for (const ch of flat) width += columns(ch);
  if (width <= max) return flat;
  let out = "";
  width = 1; // the ellipsis
  for (const ch of flat) {
    if (width + columns(ch) > max) break;
    out += ch;
    width += columns(ch);
  }
  return out + "…";
}
