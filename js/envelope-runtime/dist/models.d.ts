import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AgentSpec } from "./spec.js";
export declare const DEFAULT_MODEL = "openai:gpt-4.1-mini";
/** The definition's provider names → initChatModel's modelProvider, and each one's key. */
export declare const PROVIDERS: Readonly<Record<string, {
    provider: string;
    key: string;
    baseURL?: string;
}>>;
export interface ModelChoice {
    provider: string;
    model: string;
    /** Where it came from: `context.<field>`, an environment variable, `definition`, `MODEL`, `default`. */
    source: string;
    temperature: number | null;
    maxTokens: number | null;
    timeoutMs: number;
}
type Env = Readonly<Record<string, string | undefined>>;
/** The model an agent uses in this run. */
export declare function chooseModel(agent: AgentSpec, context?: Readonly<Record<string, unknown>>, env?: Env): ModelChoice;
/** Problems with the run's context: each agent field and `model` must be `provider:model` of a known provider. */
export declare function contextProblems(agents: readonly AgentSpec[], context: Readonly<Record<string, unknown>>): string[];
/** The provider keys the chosen models need and the environment lacks. */
export declare function missingProviderKeys(choices: readonly ModelChoice[], env?: Env): string[];
/** Creates the chat model of a choice (initChatModel; provider SDK retries: 2). */
export declare function createChatModel(choice: ModelChoice, env?: Env): Promise<BaseChatModel>;
export {};
