// `{{NAME}}` placeholders: the one substitution every Envelope target applies to the
// definition's texts (the same rules as envelope-runtime's placeholders.py for Python).
// `{{NAME}}` (a letter or `_`, then letters, digits, `_`) is replaced when NAME has a value;
// every other character, `{word}` and `{{ spaced }}` included, is left as it is.
export const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;
/** Replace each `{{NAME}}` that has a value; leave all other text untouched. */
export function render(text, values) {
    return text.replace(PLACEHOLDER, (whole, name) => (Object.hasOwn(values, name) ? values[name] : whole));
}
/** Whether `text` still holds a `{{NAME}}`. */
export function hasPlaceholder(text) {
    return /\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/.test(text);
}
/** An input's upper-case name in prompts: `{{TICKET_TEXT}}` for `ticket-text`. */
export function referenceName(inputKey) {
    // By code point, as Python's re.sub does: `🎉` is one `_`, not two.
    return inputKey.toUpperCase().replace(/[^A-Z0-9_]/gu, "_");
}
/**
 * Values for `{{NAME}}`: the run's inputs (by key, and by upper-case name: an exact key
 * wins, then the first declared), then variables and secrets from the environment, which
 * win over inputs. Non-string inputs are JSON, written as Python's `json.dumps` writes
 * them (pythonJson), so a prompt reads the same in every target.
 */
export function placeholderValues(envNames, env, inputs, declared = []) {
    const keys = declared.length > 0 ? declared : Object.keys(inputs);
    const targets = new Map(keys.map((k) => [k, k]));
    for (const key of keys)
        if (!targets.has(referenceName(key)))
            targets.set(referenceName(key), key);
    // No prototype: an input named `__proto__` is a value like any other, not the object's prototype.
    const values = Object.create(null);
    for (const [name, key] of targets) {
        if (Object.hasOwn(inputs, key)) {
            const value = inputs[key];
            values[name] = typeof value === "string" ? value : pythonJson(value);
        }
    }
    for (const name of envNames) {
        const value = env[name];
        if (value !== undefined)
            values[name] = value;
    }
    return values;
}
/**
 * `value` as Python's `json.dumps(value)` writes it: `", "` and `": "` between items,
 * every character outside ASCII's printable range as a lower-case `\uXXXX` escape
 * (ensure_ascii), floats as Python's `repr`; with `options`, as `json.dumps(value, indent=…,
 * ensure_ascii=…)`. Safe integers are written as integers; a JSON.parse'd value has already
 * lost what Python would keep (`1.0` as a float, integers beyond 2**53, the order of object
 * keys that are array indices): spec/placeholder-vectors.json.
 */
export function pythonJson(value, options = {}) {
    const str = options.ensureAscii === false ? pythonStringUnicode : pythonString;
    const indent = options.indent;
    const write = (v, depth) => {
        if (v === null || v === undefined)
            return "null";
        if (typeof v === "boolean")
            return v ? "true" : "false";
        if (typeof v === "number")
            return pythonNumber(v);
        if (typeof v === "bigint")
            return v.toString();
        if (typeof v === "string")
            return str(v);
        let items;
        let open;
        let close;
        if (Array.isArray(v)) {
            [open, close] = ["[", "]"];
            items = v.map((x) => write(x, depth + 1));
        }
        else if (typeof v === "object") {
            const json = v.toJSON;
            if (typeof json === "function")
                return write(json.call(v), depth);
            [open, close] = ["{", "}"];
            items = Object.entries(v)
                .filter(([, x]) => x !== undefined && typeof x !== "function")
                .map(([k, x]) => `${str(k)}: ${write(x, depth + 1)}`);
        }
        else
            return "null";
        if (items.length === 0)
            return open + close;
        if (indent === undefined)
            return `${open}${items.join(", ")}${close}`;
        const inner = "\n" + " ".repeat(indent * (depth + 1));
        return `${open}${inner}${items.join(`,${inner}`)}\n${" ".repeat(indent * depth)}${close}`;
    };
    return write(value, 0);
}
/**
 * Data in a task text (run inputs, records, answers), as the Python targets write it there:
 * `json.dumps(value, indent=2, ensure_ascii=False)`.
 */
export function taskJson(value) {
    return pythonJson(value, { indent: 2, ensureAscii: false });
}
function pythonNumber(n) {
    if (Number.isNaN(n))
        return "NaN";
    if (!Number.isFinite(n))
        return n > 0 ? "Infinity" : "-Infinity";
    if (Number.isSafeInteger(n))
        return String(n === 0 ? 0 : n);
    // Python's float repr: the shortest round-tripping digits (as JavaScript's), fixed for
    // exponents -4..15 (with ".0" when integral), otherwise d.ddde±XX.
    const [mantissa, exponent] = n.toExponential().split("e");
    const e = Number(exponent);
    if (e >= -4 && e < 16) {
        const fixed = String(n);
        return fixed.includes(".") ? fixed : `${fixed}.0`;
    }
    return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}
const SHORT_ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };
/** Python's ESCAPE (ensure_ascii=False): `\`, `"` and the controls U+0000..U+001F only. */
function pythonStringUnicode(text) {
    return `"${text.replace(/[\\"\x00-\x1f]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}
function pythonString(text) {
    // Python's ESCAPE_ASCII: `\`, `"` and every code unit outside " ".."~".
    return `"${text.replace(/[\\"]|[^ -~]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}
