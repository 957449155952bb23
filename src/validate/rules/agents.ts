// Agents: unique keys, a hierarchy without dangling or circular `reportsToKey`, one model
// field, one egress field, models/adapters the targets can run, and a model call that fits in the run.
import { findCycle } from "../../model/graph.js";
import { DEFAULT_AGENT_MS, DEFAULT_RUN_MS } from "../../model/normalize.js";
import { LOCAL_ADAPTER_PROVIDER, PROVIDERS, isProvider, splitModelId } from "../../model/providers.js";
import { pointerOf } from "../../read/json-pointer.js";
import { has, isObject, objectItems, str, type RuleContext } from "../rule-context.js";

export function checkAgents(ctx: RuleContext): void {
  const agents = objectItems(ctx.root.agents);
  const firstIndex = new Map<string, number>();
  for (const [i, agent] of agents) {
    const key = str(agent.key);
    if (key === undefined) continue;
    const first = firstIndex.get(key);
    if (first !== undefined) {
      ctx.report("E_DUPLICATE_AGENT_KEY", pointerOf("agents", i, "key"), `agent key "${key}" is already used by agents[${first}]`, {
        hint: "agent keys must be unique within the team",
      });
    } else firstIndex.set(key, i);
  }
  checkHierarchy(ctx, agents, firstIndex);
  for (const [i, agent] of agents) {
    if (has(agent, "model") && has(agent, "modelConfig")) {
      ctx.report("E_MODEL_CONFLICT", pointerOf("agents", i, "modelConfig"), "an agent sets both `model` and `modelConfig`; use one", {
        hint: "keep `modelConfig` if you need temperature, maxTokens or timeoutMs, and drop `model`",
        atKey: true,
      });
    }
    if (has(agent, "allowedHosts") && has(agent, "accessPolicy")) {
      ctx.report("E_POLICY_CONFLICT", pointerOf("agents", i, "accessPolicy"), "an agent sets both `allowedHosts` and `accessPolicy`; use one", {
        hint: "express the allowed hosts as `allow` rules in `accessPolicy` with `defaultAction: \"deny\"`",
        atKey: true,
      });
    }
    const model = str(agent.model);
    if (model !== undefined) checkModelId(ctx, model, pointerOf("agents", i, "model"));
    const adapter = str(agent.adapterType);
    if (adapter !== undefined && adapter.endsWith("_local")) {
      const provider = LOCAL_ADAPTER_PROVIDER[adapter];
      ctx.report("W_LOCAL_ADAPTER", pointerOf("agents", i, "adapterType"), `adapter "${adapter}" runs a tool on the builder's own machine; exported projects call the ${provider ?? "model provider's"} API instead`, {
        hint: "use \"http\" to make the definition portable",
      });
    }
  }
  checkCallTimeouts(ctx, agents);
}

const ms = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/**
 * W_AGENT_TIMEOUT_RUN: an agent whose one model call may last as long as the whole run (every
 * target's runner stops the run at timeout.runMs), so the run can end inside that call. Not when
 * both are the schema's equal defaults: the author chose neither, and every such team would warn.
 */
function checkCallTimeouts(ctx: RuleContext, agents: Array<[number, Record<string, unknown>]>): void {
  const timeout = isObject(ctx.root.timeout) ? ctx.root.timeout : {};
  const runSet = ms(timeout.runMs);
  const runMs = runSet ?? DEFAULT_RUN_MS;
  const run = `${runMs} ms (timeout.runMs${runSet === undefined ? ", the default" : ""})`;
  const hint = "raise timeout.runMs above the longest model call (above the sum of a pipeline's calls in sequence), or lower the call timeout";
  const agentMs = ms(timeout.agentMs);
  const inheriting: string[] = [];
  for (const [i, agent] of agents) {
    const key = str(agent.key) ?? `agents[${i}]`;
    const own = isObject(agent.modelConfig) ? ms(agent.modelConfig.timeoutMs) : undefined;
    if (own === undefined) {
      if ((agentMs ?? DEFAULT_AGENT_MS) >= runMs && (agentMs !== undefined || runSet !== undefined)) inheriting.push(`"${key}"`);
    } else if (own >= runMs) {
      ctx.report("W_AGENT_TIMEOUT_RUN", pointerOf("agents", i, "modelConfig", "timeoutMs"), `agent "${key}"'s model call may take ${own} ms (modelConfig.timeoutMs), at least the whole run's ${run}: the run can end inside that one call`, { hint });
    }
  }
  if (inheriting.length === 0) return;
  // One warning for every agent on the team-wide call timeout, at the value the author set.
  const value = agentMs ?? DEFAULT_AGENT_MS;
  const from = agentMs === undefined ? "the default timeout.agentMs" : "timeout.agentMs";
  ctx.report("W_AGENT_TIMEOUT_RUN", agentMs !== undefined ? "/timeout/agentMs" : "/timeout/runMs", `agent${inheriting.length > 1 ? "s" : ""} ${inheriting.join(", ")}: a model call may take ${value} ms (${from}), at least the whole run's ${run}: the run can end inside that one call`, { hint });
}

function checkModelId(ctx: RuleContext, model: string, pointer: string): void {
  const parts = splitModelId(model);
  if (!parts) {
    ctx.report("W_MODEL_FORMAT", pointer, `model "${model}" is not in \`provider:model\` form`, {
      hint: `write it as provider:model, e.g. "anthropic:claude-sonnet-4-5"; providers: ${PROVIDERS.join(", ")}`,
    });
  } else if (!isProvider(parts.provider)) {
    ctx.report("W_MODEL_PROVIDER_UNKNOWN", pointer, `model provider "${parts.provider}" is not one the export targets support`, {
      hint: `supported providers: ${PROVIDERS.join(", ")}; openrouter reaches most other vendors`,
    });
  }
}

function checkHierarchy(ctx: RuleContext, agents: Array<[number, Record<string, unknown>]>, index: Map<string, number>): void {
  const parentOf = new Map<string, string>();
  const roots: number[] = [];
  for (const [i, agent] of agents) {
    const key = str(agent.key);
    const parent = str(agent.reportsToKey);
    if (parent === undefined) {
      roots.push(i);
      continue;
    }
    const ptr = pointerOf("agents", i, "reportsToKey");
    if (parent === key) {
      ctx.report("E_REPORTS_TO_SELF", ptr, `agent "${key}" reports to itself`, { hint: "omit `reportsToKey` for a top-level agent" });
    } else if (!index.has(parent)) {
      ctx.report("E_REPORTS_TO_UNKNOWN", ptr, `\`reportsToKey\` "${parent}" does not name an agent of this team`, {
        hint: knownList("agents", [...index.keys()]),
      });
    } else if (key !== undefined && index.get(key) === i) {
      parentOf.set(key, parent);
    }
  }
  const cycle = findCycle([...parentOf.keys()], (k) => (parentOf.has(k) ? [parentOf.get(k)!] : []));
  if (cycle) {
    const first = index.get(cycle[0]!)!;
    ctx.report("E_REPORTS_TO_CYCLE", pointerOf("agents", first, "reportsToKey"), `the reporting lines form a cycle: ${cycle.join(" → ")}`, {
      hint: "every chain of `reportsToKey` must end at an agent without one",
    });
  }
  const hasPipeline = Array.isArray(ctx.root.pipeline) && ctx.root.pipeline.length > 0;
  if (roots.length > 1 && !hasPipeline) {
    const keys = roots.map((i) => str(agents.find(([j]) => j === i)?.[1].key) ?? `agents[${i}]`);
    ctx.report("W_MULTIPLE_ROOTS", pointerOf("agents", roots[1]!), `the team has ${roots.length} top-level agents (${keys.join(", ")}) and no pipeline; the first, "${keys[0]}", receives the task`, {
      hint: "give the others a `reportsToKey`, or add a `pipeline` to say how they run",
    });
  }
}

export function knownList(what: string, names: string[]): string {
  if (names.length === 0) return `this team has no ${what}`;
  const shown = names.slice(0, 12).map((n) => `"${n}"`).join(", ");
  return `known ${what}: ${shown}${names.length > 12 ? ", …" : ""}`;
}
