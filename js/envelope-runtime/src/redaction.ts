// Secret values out of free text before it is stored (state, checkpoints, traces).

/** `text` with every value of `secrets` (names → values; blank ones ignored) written as `{{NAME}}`, longest value first. */
export function redact(text: string, secrets: Readonly<Record<string, string | undefined>>): string {
  const pairs = Object.entries(secrets)
    .filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim().length > 0)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  let out = text;
  for (const [name, value] of pairs) out = out.split(value).join(`{{${name}}}`);
  return out;
}

/** Any JSON value with `redact` applied to every string in it (keys too). */
export function redactValue(value: unknown, secrets: Readonly<Record<string, string | undefined>>): unknown {
  if (typeof value === "string") return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secrets), redactValue(v, secrets)]));
  }
  return value;
}

/** The values of `names` in the environment (names → values), for `redact`. */
export function secretValues(names: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim()) out[name] = value;
  }
  return out;
}
