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
    return inputKey.toUpperCase().replace(/[^A-Z0-9_]/g, "_");
}
/**
 * Values for `{{NAME}}`: the run's inputs (by key, and by upper-case name: an exact key
 * wins, then the first declared), then variables and secrets from the environment, which
 * win over inputs. Non-string inputs are JSON.
 */
export function placeholderValues(envNames, env, inputs, declared = []) {
    const keys = declared.length > 0 ? declared : Object.keys(inputs);
    const targets = new Map(keys.map((k) => [k, k]));
    for (const key of keys)
        if (!targets.has(referenceName(key)))
            targets.set(referenceName(key), key);
    const values = {};
    for (const [name, key] of targets) {
        if (Object.hasOwn(inputs, key)) {
            const value = inputs[key];
            values[name] = typeof value === "string" ? value : JSON.stringify(value);
        }
    }
    for (const name of envNames) {
        const value = env[name];
        if (value !== undefined)
            values[name] = value;
    }
    return values;
}
