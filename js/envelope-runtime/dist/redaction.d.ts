/** `text` with every value of `secrets` (names → values; blank ones ignored) written as `{{NAME}}`, longest value first. */
export declare function redact(text: string, secrets: Readonly<Record<string, string | undefined>>): string;
/** Any JSON value with `redact` applied to every string in it (keys too). */
export declare function redactValue(value: unknown, secrets: Readonly<Record<string, string | undefined>>): unknown;
/** The values of `names` in the environment (names → values), for `redact`. */
export declare function secretValues(names: readonly string[], env?: Readonly<Record<string, string | undefined>>): Record<string, string>;
