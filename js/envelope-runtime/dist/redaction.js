// Secret values out of free text before it is stored (state, checkpoints, traces).
/** `text` with every value of `secrets` (names → values; blank ones ignored) written as `{{NAME}}`, longest value first. */
export function redact(text, secrets) {
    const pairs = Object.entries(secrets)
        .filter((e) => typeof e[1] === "string" && e[1].trim().length > 0)
        .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
    let out = text;
    for (const [name, value] of pairs)
        out = out.split(value).join(`{{${name}}}`);
    return out;
}
/** Any JSON value with `redact` applied to every string in it (keys too). */
export function redactValue(value, secrets) {
    if (typeof value === "string")
        return redact(value, secrets);
    if (Array.isArray(value))
        return value.map((v) => redactValue(v, secrets));
    if (value !== null && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secrets), redactValue(v, secrets)]));
    }
    return value;
}
/** The values of `names` in the environment (names → values), for `redact`. */
export function secretValues(names, env = process.env) {
    const out = {};
    for (const name of names) {
        const value = env[name];
        if (value !== undefined && value.trim())
            out[name] = value;
    }
    return out;
}
