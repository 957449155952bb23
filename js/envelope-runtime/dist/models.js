import { initChatModel } from "langchain";
import { override, splitModel } from "./model-env.js";
export const DEFAULT_MODEL = "openai:gpt-4.1-mini";
/** The definition's provider names → initChatModel's modelProvider, and each one's key. */
export const PROVIDERS = {
    openai: { provider: "openai", key: "OPENAI_API_KEY" },
    anthropic: { provider: "anthropic", key: "ANTHROPIC_API_KEY" },
    google: { provider: "google-genai", key: "GOOGLE_API_KEY" },
    google_genai: { provider: "google-genai", key: "GOOGLE_API_KEY" },
    mistral: { provider: "mistralai", key: "MISTRAL_API_KEY" },
    mistralai: { provider: "mistralai", key: "MISTRAL_API_KEY" },
    openrouter: { provider: "openai", key: "OPENROUTER_API_KEY", baseURL: "https://openrouter.ai/api/v1" },
};
/** The model an agent uses in this run. */
export function chooseModel(agent, context = {}, env = process.env) {
    const base = { temperature: agent.model?.temperature ?? null, maxTokens: agent.model?.maxTokens ?? null, timeoutMs: agent.timeoutMs };
    const pick = (value, source) => {
        const split = splitModel(value);
        return split ? { provider: split[0], model: split[1], source, ...base } : undefined;
    };
    for (const field of [agent.contextField, "model"]) {
        const value = context[field];
        if (typeof value === "string" && value.trim()) {
            const chosen = pick(value, `context.${field}`);
            if (chosen)
                return chosen;
        }
    }
    const fromEnv = override(agent.key, env);
    if (fromEnv) {
        const chosen = pick(fromEnv[1], fromEnv[0]);
        if (chosen)
            return chosen;
    }
    if (agent.model)
        return { provider: agent.model.provider.toLowerCase(), model: agent.model.model, source: "definition", ...base };
    const fallback = (env.MODEL ?? "").trim();
    return (fallback && pick(fallback, "MODEL")) || pick(DEFAULT_MODEL, "default");
}
/** Problems with the run's context: each agent field and `model` must be `provider:model` of a known provider. */
export function contextProblems(agents, context) {
    const fields = new Set(["model", ...agents.map((a) => a.contextField)]);
    const problems = [];
    for (const [field, value] of Object.entries(context)) {
        if (!fields.has(field) || value === undefined || value === null || (typeof value === "string" && !value.trim()))
            continue;
        const split = typeof value === "string" ? splitModel(value) : undefined;
        if (!split)
            problems.push(`context.${field}=${JSON.stringify(value)}: expected provider:model (e.g. openai:gpt-4.1-mini)`);
        else if (!PROVIDERS[split[0]])
            problems.push(`context.${field}: unknown provider ${JSON.stringify(split[0])} (known: ${Object.keys(PROVIDERS).join(", ")})`);
    }
    return problems;
}
/** The provider keys the chosen models need and the environment lacks. */
export function missingProviderKeys(choices, env = process.env) {
    const missing = new Set();
    for (const choice of choices) {
        const key = PROVIDERS[choice.provider]?.key;
        if (key && !(env[key] ?? "").trim())
            missing.add(key);
    }
    return [...missing].sort();
}
/** Creates the chat model of a choice (initChatModel; provider SDK retries: 2). */
export async function createChatModel(choice, env = process.env) {
    const known = PROVIDERS[choice.provider];
    const fields = { modelProvider: known?.provider ?? choice.provider, maxRetries: 2, timeout: choice.timeoutMs };
    if (choice.temperature !== null)
        fields.temperature = choice.temperature;
    if (choice.maxTokens !== null)
        fields.maxTokens = choice.maxTokens;
    if (known?.baseURL)
        fields.configuration = { baseURL: known.baseURL, apiKey: env[known.key] };
    return (await initChatModel(choice.model, fields));
}
