// Registry data (what Envelope's registry lists: visibility, pricing, tags…) is read by no
// runtime, in an exported project or in Envelope: every Python target reports it the same
// way, as not carried, and it never fails a strict export.
import type { FieldRule } from "../../export/loss-report.js";

const REGISTRY = "registry-only: no runtime reads it; kept in the provenance copy src/<package>/envelope.json";

export function registryRule(pattern: string): FieldRule {
  return { pattern, status: "dropped", detail: REGISTRY, registryOnly: true };
}

/** The team's own registry fields. */
export const TEAM_REGISTRY_RULES: readonly FieldRule[] = ["/changelog", "/category", "/tags", "/visibility", "/pricing", "/icon", "/forkable", "/forkedFrom", "/metadata"].map(registryRule);
