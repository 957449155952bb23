// Rules for the v1.1 schedules that every target applies alike: which agent's model
// answers a `condition` schedule's pre-check (the "cheapest" the team declares), and the
// cron expression of each `conditionInterval`.
import type { AgentModel, ScheduleModel } from "./types.js";

type ConditionInterval = Extract<ScheduleModel, { type: "condition" }>["interval"];

/**
 * Price tiers by the words of a model's name, cheapest first. No price list is kept
 * (prices change monthly); providers name their tiers instead, and these words are how
 * they do it: `nano`/`lite`/`tiny` below `mini`/`haiku`/`flash`/`small`, below an unmarked
 * model, below `opus`/`pro`/`large`/`ultra`/`max`.
 */
const TIERS: ReadonlyArray<readonly string[]> = [
  ["nano", "lite", "tiny"],
  ["mini", "haiku", "flash", "small"],
];
const EXPENSIVE = ["opus", "pro", "large", "ultra", "max"];
const UNMARKED_TIER = TIERS.length;

/** The price tier of a model name (0 cheapest): the cheapest tier any of its words names. */
export function modelTier(model: string): number {
  const words = model.toLowerCase().split(/[^a-z0-9]+/);
  const found = TIERS.findIndex((tier) => tier.some((w) => words.includes(w)));
  if (found >= 0) return found;
  return words.some((w) => EXPENSIVE.includes(w)) ? UNMARKED_TIER + 1 : UNMARKED_TIER;
}

/**
 * The agent whose model answers the condition pre-check: of the agents that declare a
 * model (`model` or `modelConfig`), the one in the cheapest tier (modelTier), the first in
 * definition order on a tie; without any declared model, the first agent (its model comes
 * from the environment). At run time MODEL_OVERRIDE and that agent's MODEL_<AGENT> still
 * replace it, as they do for the agent itself.
 */
export function conditionAgent(agents: readonly AgentModel[]): AgentModel {
  let best: AgentModel | undefined;
  for (const agent of agents) {
    if (!agent.llm) continue;
    if (!best || modelTier(agent.llm.model) < modelTier(best.llm!.model)) best = agent;
  }
  return best ?? agents[0]!;
}

/** GitHub Actions' cron (UTC) for each interval: on the hour, every N hours from midnight. */
export const INTERVAL_CRON: Readonly<Record<ConditionInterval, string>> = {
  "15min": "*/15 * * * *",
  "1h": "0 * * * *",
  "6h": "0 */6 * * *",
  "24h": "0 0 * * *",
};

/** Seconds between two checks of the `poll` command. */
export const INTERVAL_SECONDS: Readonly<Record<ConditionInterval, number>> = {
  "15min": 900,
  "1h": 3600,
  "6h": 21600,
  "24h": 86400,
};
