// What the exported project needs of an `event` or `condition` schedule (both Python
// targets alike): the webhook receiver's secret, the condition's model, prompt and
// interval, and the scheduled workflow's cron. The rules are src/model/schedule-rules.ts.
import { conditionAgent, INTERVAL_CRON, INTERVAL_SECONDS } from "../../model/schedule-rules.js";
import type { TeamModel } from "../../model/types.js";

/** The environment variable holding the webhook secret when the definition names none of its secrets. */
export const DEFAULT_WEBHOOK_SECRET_ENV = "WEBHOOK_SECRET";

export interface ScheduleView {
  hasEvent: boolean;
  hasCondition: boolean;
  /** Whether .github/workflows/scheduled-run.yml is emitted (cron, or condition polling). */
  hasWorkflow: boolean;
  /** The workflow's cron: schedule.cron, or the condition interval's. */
  workflowCron: string;
  /** event: the variable the receiver reads the HMAC secret from. */
  webhookSecretEnv: string;
  /** event: the secret is one of requiredSecrets (`"{{NAME}}"`), so the run checks it too. */
  webhookSecretFromDefinition: boolean;
  /** condition: the agent whose model answers the pre-check, and why it was chosen. */
  conditionAgentKey: string;
  conditionAgentRef: string;
  conditionModel: string;
  conditionPrompt: string;
  hasConditionPrompt: boolean;
  conditionInterval: string;
  conditionIntervalSeconds: number;
}

export function scheduleView(model: TeamModel): ScheduleView {
  const s = model.schedule;
  const agent = conditionAgent(model.agents);
  const view: ScheduleView = {
    hasEvent: s.type === "event",
    hasCondition: s.type === "condition",
    hasWorkflow: s.type === "cron" || s.type === "condition",
    workflowCron: s.type === "cron" ? s.cron : s.type === "condition" ? INTERVAL_CRON[s.interval] : "",
    webhookSecretEnv: (s.type === "event" && s.webhookSecretRef) || DEFAULT_WEBHOOK_SECRET_ENV,
    webhookSecretFromDefinition: s.type === "event" && s.webhookSecretRef !== undefined,
    conditionAgentKey: agent.key,
    conditionAgentRef: `agents[${agent.index}] ${agent.key}`,
    conditionModel: agent.llm ? `${agent.llm.provider}:${agent.llm.model}` : "",
    conditionPrompt: s.type === "condition" ? (s.conditionPrompt ?? "") : "",
    hasConditionPrompt: s.type === "condition" && s.conditionPrompt !== undefined,
    conditionInterval: s.type === "condition" ? s.interval : "",
    conditionIntervalSeconds: s.type === "condition" ? INTERVAL_SECONDS[s.interval] : 0,
  };
  return view;
}
