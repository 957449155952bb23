// `{{NAME}}` placeholders in prompts and policy hosts. Only this exact form is a placeholder;
// everything else — `{word}`, `{{ spaced }}`, JSON braces, Handlebars blocks — is literal text.

export const PLACEHOLDER_RE = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

export interface PlaceholderUse {
  name: string;
  /** Offset of the `{{` in the string. */
  index: number;
}

export function findPlaceholders(text: string): PlaceholderUse[] {
  return [...text.matchAll(PLACEHOLDER_RE)].map((m) => ({ name: m[1]!, index: m.index }));
}

/** How inputs are referenced: `{{OUTPUT_FORMAT}}` names input `output_format`. */
export function inputReferenceName(inputKey: string): string {
  return inputKey.toUpperCase().replace(/[^A-Z0-9_]/gu, "_");
}

export type PlaceholderKind = "secret" | "variable" | "input";

export interface PlaceholderScope {
  secrets: ReadonlySet<string>;
  variables: ReadonlySet<string>;
  /**
   * Reference name → input key: every exact key, then each upper-cased form no key and no
   * earlier input already has (`{{A_B}}` is input `A_B` if there is one, else the first of
   * `a-b`, `a_b`).
   */
  inputs: ReadonlyMap<string, string>;
}

export function buildScope(secrets: Iterable<string>, variables: Iterable<string>, inputKeys: Iterable<string>): PlaceholderScope {
  const keys = [...inputKeys];
  const inputs = new Map<string, string>(keys.map((key) => [key, key]));
  for (const key of keys) {
    const upper = inputReferenceName(key);
    if (!inputs.has(upper)) inputs.set(upper, key);
  }
  return { secrets: new Set(secrets), variables: new Set(variables), inputs };
}

/** What a placeholder name refers to. Secrets win over variables, variables over inputs. */
export function resolvePlaceholder(name: string, scope: PlaceholderScope): { kind: PlaceholderKind; target: string } | undefined {
  if (scope.secrets.has(name)) return { kind: "secret", target: name };
  if (scope.variables.has(name)) return { kind: "variable", target: name };
  const input = scope.inputs.get(name);
  if (input !== undefined) return { kind: "input", target: input };
  return undefined;
}
