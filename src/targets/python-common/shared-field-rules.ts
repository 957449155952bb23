// Loss-report rules every Python target states alike. Registry data (what Envelope's
// registry lists: visibility, pricing, tags…) is read by no runtime, in an exported project
// or in Envelope: reported as not carried, never fatal to a strict export. The schedule
// goes to the README, and a cron schedule to the shared scheduled workflow.
import type { FieldRule } from "../../export/loss-report.js";

const REGISTRY = "registry-only: no runtime reads it; kept in the provenance copy src/<package>/envelope.json";

export function registryRule(pattern: string): FieldRule {
  return { pattern, status: "dropped", detail: REGISTRY, registryOnly: true };
}

/** The team's own registry fields. */
export const TEAM_REGISTRY_RULES: readonly FieldRule[] = ["/changelog", "/category", "/tags", "/visibility", "/pricing", "/icon", "/forkable", "/forkedFrom", "/metadata"].map(registryRule);

/** schedule.type: where it goes depends on the value. */
export const SCHEDULE_TYPE_RULE: FieldRule = {
  pattern: "/schedule/type",
  resolve: (v) =>
    v === "event"
      ? { status: "carried", detail: "`<package> serve-webhook`: an HMAC-SHA256-verified webhook receiver that runs the team with the payload as its inputs (README)" }
      : v === "condition"
        ? { status: "carried", detail: "`<package> poll` (and .github/workflows/scheduled-run.yml with `poll --once`): the condition asked of the cheapest declared model, the team run only on yes (README)" }
        : v === "continuous"
          ? { status: "approximated", detail: "declared only: continuous schedules have no behaviour in Envelope v1.1; the team runs when you start it" }
          : v === "cron"
        ? { status: "carried", detail: "README, and .github/workflows/scheduled-run.yml" }
        : { status: "carried", detail: "README: the team runs when you start it" },
};

/**
 * schedule.webhookSecret: carried when it is `{{NAME}}` of a declared secret (normalize's
 * webhookSecretRef); anything else (a variable's name, a literal value, which is never copied)
 * leaves serve-webhook on its own variable, WEBHOOK_SECRET.
 */
export const WEBHOOK_SECRET_RULE: FieldRule = {
  pattern: "/schedule/webhookSecret",
  resolve: (_v, _pointer, model) =>
    model.schedule.type === "event" && model.schedule.webhookSecretRef !== undefined
      ? { status: "carried", detail: `team.WEBHOOK_SECRET_ENV: serve-webhook verifies signatures with the secret ${model.schedule.webhookSecretRef}` }
      : { status: "approximated", detail: "not `{{NAME}}` of a declared secret (a value is never copied into the export): serve-webhook verifies signatures with WEBHOOK_SECRET instead" },
};
