// How each Envelope provider is reached from CrewAI 1.x (read from crewai's own LLM routing
// and pyproject extras, not from its docs, which name extras that do not exist).
import type { LlmModel } from "../../model/types.js";

interface CrewaiProvider {
  /** crewai.LLM model prefix. */
  prefix: string;
  /** crewai[...] extra that installs the client, if any. */
  extra?: string;
  /** Environment variables holding the API key (any one of them). */
  keys: string[];
  /** The base-URL variable llms.py passes to the client (llms.BASE_URL_ENV, first name). */
  baseUrlEnv?: string;
}

export const CREWAI_PROVIDERS: Record<string, CrewaiProvider> = {
  anthropic: { prefix: "anthropic", extra: "anthropic", keys: ["ANTHROPIC_API_KEY"], baseUrlEnv: "ANTHROPIC_BASE_URL" },
  openai: { prefix: "openai", keys: ["OPENAI_API_KEY"], baseUrlEnv: "OPENAI_BASE_URL" },
  google: { prefix: "gemini", extra: "google-genai", keys: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], baseUrlEnv: "GOOGLE_GEMINI_BASE_URL" },
  // Not a native CrewAI provider: routed through LiteLLM.
  mistral: { prefix: "mistral", extra: "litellm", keys: ["MISTRAL_API_KEY"], baseUrlEnv: "MISTRAL_API_BASE" },
  openrouter: { prefix: "openrouter", keys: ["OPENROUTER_API_KEY"], baseUrlEnv: "OPENROUTER_BASE_URL" },
};

/** Unknown providers go through LiteLLM under their own prefix. */
export function crewaiProvider(provider: string): CrewaiProvider {
  // Own keys only: a provider named "__proto__" or "constructor" is just unknown.
  return Object.hasOwn(CREWAI_PROVIDERS, provider) ? CREWAI_PROVIDERS[provider]! : { prefix: provider || "openai", extra: "litellm", keys: [] };
}

export function crewaiModelId(llm: LlmModel): string {
  return `${crewaiProvider(llm.provider).prefix}/${llm.model}`;
}
