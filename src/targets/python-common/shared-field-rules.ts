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
    v === "event" || v === "condition"
      ? { status: "approximated", detail: `the export has no ${v === "event" ? "webhook receiver" : "scheduler"}: the team runs on demand, as the README says` }
      : v === "cron"
        ? { status: "carried", detail: "README, and .github/workflows/scheduled-run.yml" }
        : { status: "carried", detail: "README: the team runs when you start it" },
};
