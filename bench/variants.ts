// Inputs for the throughput benches, made from the support-tier example (3 agents), so a
// figure says which work could be reused and which could not.
import { readFileSync } from "node:fs";

const BASE = JSON.parse(readFileSync(new URL("../examples/support-tier.envelope.json", import.meta.url), "utf8"));

/** The example as it is, compact (one line). */
export function example(): string {
  return JSON.stringify(BASE);
}

/** Stands for the variant number in a template (`newTeam(MARK)`): load generators fill it in. */
export const MARK = "@@N@@";

/** The example as another team: every generated module differs from every other variant's. */
export function newTeam(i: number | string): string {
  const d = structuredClone(BASE);
  d.name = `Support Tier ${i}`;
  d.slug = `support-tier-${i}`;
  d.version = `1.0.${i}`;
  d.description += ` (${i})`;
  for (const a of d.agents) {
    a.name += ` ${i}`;
    a.title += ` ${i}`;
    a.prompt += `\n\nVariant ${i}.`;
  }
  const suffixed = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`${k}_${i}`, v]));
  d.inputs = suffixed(d.inputs);
  d.outputs = suffixed(d.outputs);
  return JSON.stringify(d);
}

/** The example with one prompt edited, as while someone types in the page. */
export function editedTeam(i: number | string): string {
  const d = structuredClone(BASE);
  d.agents[0].prompt += `\n\nEdit ${i}.`;
  return JSON.stringify(d);
}

/** A team of `agentCount` agents in a 10-ary hierarchy (one manager), each with its own access policy. */
export function bigTeam(agentCount: number): string {
  const agents = Array.from({ length: agentCount }, (_, i) => ({
    key: `agent-${i}`,
    name: `Agent ${i}`,
    title: `Specialist ${i}`,
    role: i === 0 ? "manager" : "specialist",
    model: "anthropic:claude-sonnet-4-5",
    prompt: `You are agent ${i} of {{COMPANY_NAME}}. Work on {{TOPIC}} and report to your lead.`,
    ...(i === 0 ? {} : { reportsToKey: `agent-${Math.floor((i - 1) / 10)}` }),
    accessPolicy: { accessPolicyVersion: "1", defaultAction: "deny", rules: [{ host: "*.example.com", methods: ["GET"], action: "allow", reason: "read" }] },
  }));
  return JSON.stringify({
    $schema: "https://schema.openenvelope.org/team/v1.json",
    name: "Big Team",
    slug: "big-team",
    version: "1.0.0",
    description: `${agentCount} agents in a 10-ary hierarchy.`,
    visibility: "private",
    requiredVariables: ["COMPANY_NAME"],
    inputs: { topic: { type: "string", required: true } },
    agents,
  });
}
