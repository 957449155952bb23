// How each Envelope provider is reached from LangChain 1.x: the `init_chat_model` prefix
// (only prefixes in langchain's own provider table are split off a "prefix:model" string),
// the integration package it imports, and the key that package reads.
import type { LlmModel } from "../../model/types.js";

export interface LangchainProvider {
  /** init_chat_model provider prefix. */
  prefix: string;
  /** The PyPI package init_chat_model imports for it. */
  package: string;
  /** Environment variables holding the API key (any one of them). */
  keys: string[];
  /** The base-URL variable llms.py passes to the chat model (llms.BASE_URL_ENV, first name). */
  baseUrlEnv: string;
}

export const LANGCHAIN_PROVIDERS: Record<string, LangchainProvider> = {
  anthropic: { prefix: "anthropic", package: "langchain-anthropic>=1.6,<2", keys: ["ANTHROPIC_API_KEY"], baseUrlEnv: "ANTHROPIC_BASE_URL" },
  openai: { prefix: "openai", package: "langchain-openai>=1.6,<2", keys: ["OPENAI_API_KEY"], baseUrlEnv: "OPENAI_BASE_URL" },
  google: { prefix: "google_genai", package: "langchain-google-genai>=4.3,<5", keys: ["GOOGLE_API_KEY", "GEMINI_API_KEY"], baseUrlEnv: "GOOGLE_GEMINI_BASE_URL" },
  mistral: { prefix: "mistralai", package: "langchain-mistralai>=1.1,<2", keys: ["MISTRAL_API_KEY"], baseUrlEnv: "MISTRAL_BASE_URL" },
  openrouter: { prefix: "openrouter", package: "langchain-openrouter>=0.2,<1", keys: ["OPENROUTER_API_KEY"], baseUrlEnv: "OPENROUTER_API_BASE" },
};

/** Agents without a model use this (llms.DEFAULT_MODEL; the MODEL variable overrides it). */
export const DEFAULT_PROVIDER = "openai";

/** A provider the export does not know keeps its own name as the prefix; langchain may know it. */
export function langchainProvider(provider: string): LangchainProvider | undefined {
  // Own keys only: a provider named "__proto__" or "constructor" is just unknown.
  return Object.hasOwn(LANGCHAIN_PROVIDERS, provider) ? LANGCHAIN_PROVIDERS[provider]! : undefined;
}

/** "prefix:model"; a model written without a provider stays as written (init_chat_model infers one). */
export function langchainModelId(llm: LlmModel): string {
  if (llm.provider === "") return llm.model;
  return `${langchainProvider(llm.provider)?.prefix ?? llm.provider}:${llm.model}`;
}
