export declare const OVERRIDE_ENV = "MODEL_OVERRIDE";
/** `MODEL_<AGENT>` of one agent. */
export declare function agentEnv(agentKey: string): string;
/** [provider, model] of `provider:model` or `provider/model`; undefined if it is neither. */
export declare function splitModel(value: string): [string, string] | undefined;
/** [variable, value] overriding this agent's model, if the environment sets one. */
export declare function override(agentKey: string, env?: Readonly<Record<string, string | undefined>>): [string, string] | undefined;
/** Every override that names no `provider:model`, reported before the run. */
export declare function overrideProblems(agentKeys: readonly string[], env?: Readonly<Record<string, string | undefined>>): string[];
