// `{{NAME}}` placeholders: the one substitution every Envelope target applies to the
// definition's texts (the same rules as envelope-runtime's placeholders.py for Python).
// `{{NAME}}` (a letter or `_`, then letters, digits, `_`) is replaced when NAME has a value;
// every other character, `{word}` and `{{ spaced }}` included, is left as it is.

export const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** Replace each `{{NAME}}` that has a value; leave all other text untouched. */
export function render(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/** Whether `text` still holds a `{{NAME}}`. */
export function hasPlaceholder(text: string): boolean {
  return /\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/.test(text);
}

/** An input's upper-case name in prompts: `{{TICKET_TEXT}}` for `ticket-text`. */
export function referenceName(inputKey: string): string {
  // By code point, as Python's re.sub does: `🎉` is one `_`, not two.
  return inputKey.toUpperCase().replace(/[^A-Z0-9_]/gu, "_");
}

/**
 * Values for `{{NAME}}`: the run's inputs (by key, and by upper-case name: an exact key
 * wins, then the first declared), then variables and secrets from the environment, which
 * win over inputs. Non-string inputs are JSON, written as Python's `json.dumps` writes
 * them (pythonJson), so a prompt reads the same in every target.
 */
export function placeholderValues(
  envNames: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  inputs: Readonly<Record<string, unknown>>,
  declared: readonly string[] = [],
): Record<string, string> {
  const keys = declared.length > 0 ? declared : Object.keys(inputs);
  const targets = new Map<string, string>(keys.map((k) => [k, k]));
  for (const key of keys) if (!targets.has(referenceName(key))) targets.set(referenceName(key), key);
  // No prototype: an input named `__proto__` is a value like any other, not the object's prototype.
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, key] of targets) {
    if (Object.hasOwn(inputs, key)) {
      const value = inputs[key];
      values[name] = typeof value === "string" ? value : pythonJson(value);
    }
  }
  for (const name of envNames) {
    const value = env[name];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/**
 * `value` as Python's `json.dumps(value)` writes it: `", "` and `": "` between items,
 * every character outside ASCII's printable range as a lower-case `\uXXXX` escape
 * (ensure_ascii), floats as Python's `repr`. Safe integers are written as integers; a
 * JSON.parse'd value has already lost what Python would keep (`1.0` as a float, integers
 * beyond 2**53, the order of object keys that are array indices): spec/placeholder-vectors.json.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === "function") return pythonJson(json.call(value));
    const items = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function");
    return `{${items.map(([k, v]) => `${pythonString(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return "null";
}

function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  if (Number.isSafeInteger(n)) return String(n === 0 ? 0 : n);
  // Python's float repr: the shortest round-tripping digits (as JavaScript's), fixed for
  // exponents -4..15 (with ".0" when integral), otherwise d.ddde±XX.
  const [mantissa, exponent] = n.toExponential().split("e") as [string, string];
  const e = Number(exponent);
  if (e >= -4 && e < 16) {
    const fixed = String(n);
    return fixed.includes(".") ? fixed : `${fixed}.0`;
  }
  return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

function pythonString(text: string): string {
  // Python's ESCAPE_ASCII: `\`, `"` and every code unit outside " ".."~".
  return `"${text.replace(/[\\"]|[^ -~]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}
