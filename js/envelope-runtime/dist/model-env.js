// Which model an agent uses when the environment says so (the same contract as the Python
// targets' model_env.py):
// - `MODEL_<AGENT>=provider:model`: that one agent (AGENT: its key with ASCII letters
//   upper-cased and every other character `_`, e.g. `lead-writer` -> `MODEL_LEAD_WRITER`);
// - `MODEL_OVERRIDE=provider:model`: every agent `MODEL_<AGENT>` does not name;
// - otherwise the run's context, then the definition's model.
// `provider/model` is accepted too: the first `:` or `/` ends the provider.
export const OVERRIDE_ENV = "MODEL_OVERRIDE";
/** `MODEL_<AGENT>` of one agent. */
export function agentEnv(agentKey) {
    return "MODEL_" + Array.from(agentKey, (c) => (/^[A-Za-z0-9]$/.test(c) ? c.toUpperCase() : "_")).join("");
}
/** [provider, model] of `provider:model` or `provider/model`; undefined if it is neither. */
export function splitModel(value) {
    const cuts = [value.indexOf(":"), value.indexOf("/")].filter((i) => i >= 0);
    if (cuts.length === 0)
        return undefined;
    const cut = Math.min(...cuts);
    const provider = value.slice(0, cut).trim().toLowerCase();
    const model = value.slice(cut + 1).trim();
    return provider && model ? [provider, model] : undefined;
}
/** [variable, value] overriding this agent's model, if the environment sets one. */
export function override(agentKey, env = process.env) {
    for (const name of [agentEnv(agentKey), OVERRIDE_ENV]) {
        const value = (env[name] ?? "").trim();
        if (value)
            return [name, value];
    }
    return undefined;
}
/** Every override that names no `provider:model`, reported before the run. */
export function overrideProblems(agentKeys, env = process.env) {
    const problems = [];
    for (const key of agentKeys) {
        const found = override(key, env);
        if (found && !splitModel(found[1])) {
            const problem = `${found[0]}=${JSON.stringify(found[1])}: expected provider:model (e.g. openai:gpt-4.1-mini)`;
            if (!problems.includes(problem))
                problems.push(problem);
        }
    }
    return problems;
}
