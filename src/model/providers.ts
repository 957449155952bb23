// Model providers the targets know how to construct, and how local adapters map onto them.

export const PROVIDERS = ["anthropic", "openai", "google", "mistral", "openrouter"] as const;
export type Provider = (typeof PROVIDERS)[number];

export function isProvider(p: string): p is Provider {
  return (PROVIDERS as readonly string[]).includes(p);
}

/** `*_local` adapters run a vendor's CLI on the builder's machine; exports use that vendor's API. */
export const LOCAL_ADAPTER_PROVIDER: Record<string, Provider> = {
  claude_local: "anthropic",
  openai_local: "openai",
  codex_local: "openai",
  gemini_local: "google",
  opencode_local: "openai",
  cursor_local: "openai",
};

/** Splits `provider:model`; undefined when the string is not in that form. */
export function splitModelId(id: string): { provider: string; model: string } | undefined {
  const i = id.indexOf(":");
  if (i <= 0 || i === id.length - 1) return undefined;
  return { provider: id.slice(0, i), model: id.slice(i + 1) };
}
