// What the exported README and .env.example say about choosing models from the environment
// (templates/python-common/static/src/PKG/model_env.py implements it; keep the two equal).
import type { TeamModel } from "../../model/types.js";

/** `MODEL_<AGENT>`: ASCII letters and digits kept (letters upper-cased), every other character `_`. */
export function agentModelEnv(agentKey: string): string {
  return `MODEL_${[...agentKey].map((c) => (/^[A-Za-z0-9]$/.test(c) ? c.toUpperCase() : "_")).join("")}`;
}

function groupByEnv(keys: readonly string[]): Array<{ env: string; keys: string[] }> {
  const groups = new Map<string, string[]>();
  for (const key of keys) groups.set(agentModelEnv(key), [...(groups.get(agentModelEnv(key)) ?? []), key]);
  return [...groups].map(([env, shared]) => ({ env, keys: shared }));
}

export interface ProviderEndpoint {
  /** Envelope provider name (agents[].model "provider:model"). */
  provider: string;
  /** The base-URL variable the runner passes to this provider's client. */
  baseUrlEnv: string;
}

export interface ModelEnvView {
  /** One per variable; agent keys that differ only in other characters share one. */
  agentModelEnvs: Array<{ env: string; keys: string[] }>;
  /** One per provider the team's models use, openai always (the generic example's provider). */
  baseUrls: ProviderEndpoint[];
  /** Optional dependency groups: one per known provider whose package is not a dependency. */
  providerExtras: Array<{ name: string; requirement: string }>;
  /** Whether the README's OpenAI-compatible example first needs `uv sync --extra openai`. */
  openaiExtra: boolean;
}

export function modelEnvView(
  model: TeamModel,
  usedProviders: readonly string[],
  endpoints: Readonly<Record<string, string>>,
  extras: ReadonlyArray<{ name: string; requirement: string }>,
): ModelEnvView {
  const providers = [...new Set([...usedProviders, "openai"])].filter((p) => Object.hasOwn(endpoints, p));
  return {
    agentModelEnvs: groupByEnv(model.agents.map((a) => a.key)),
    baseUrls: providers.map((p) => ({ provider: p, baseUrlEnv: endpoints[p]! })),
    providerExtras: [...extras],
    openaiExtra: extras.some((e) => e.name === "openai"),
  };
}
