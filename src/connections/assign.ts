// Which agent gets which connection pack. An agent gets a pack when its egress policy
// (accessPolicy or allowedHosts, as normalized) allows some request to a host the pack's
// `apiHosts` cover: `{{ZENDESK_SUBDOMAIN}}.zendesk.com` meets a pack for `zendesk.com`. Hosts
// are probed with every `{{NAME}}` and `*` standing for one label, so a rule that needs a
// variable counts for the hosts it can name. Without such a request the pack's tools would be
// refused on every call, so the pack is not given. A pack with `reach.mcp` goes to an agent whose
// policy allows POST to the server's URL as it stands (the client's every request is one), and
// only when that URL's host is under the pack's `apiHosts` (else its credential could go nowhere:
// report.ts says so). A pack without `apiHosts` goes to no agent by itself.
// `--connection AGENT_KEY=PROVIDER_ID` gives a pack to an agent whatever its policy says (its
// requests are still checked against both at run time).
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import { evaluatePolicy, expandPlaceholders } from "../model/evaluate-policy.js";
import type { AgentModel, TeamModel } from "../model/types.js";
import { apiHostsAllow } from "./api-hosts.js";
import type { ConnectionPack } from "./read-packs.js";

export interface PackAssignment {
  agent: string;
  provider: string;
  /** Why, in words for the README and the loss report. */
  why: string;
}

export interface ExplicitConnection {
  agent: string;
  provider: string;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Parses one `--connection AGENT_KEY=PROVIDER_ID`. */
export function parseConnectionFlag(value: string): ExplicitConnection | undefined {
  const m = /^([^=\s]+)=([^=\s]+)$/.exec(value);
  return m ? { agent: m[1]!, provider: m[2]! } : undefined;
}

const PROBE = "envelope-probe";

/** Whether the agent's policy allows some request to a host `apiHosts` cover (see the rule above). */
export function policyReaches(agent: AgentModel, apiHosts: readonly string[]): boolean {
  const rules = agent.egress.rules;
  const names = new Set(rules.flatMap((r) => [...`${r.host ?? ""}${r.pathPrefix ?? ""}`.matchAll(/\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g)].map((m) => m[1]!)));
  const variables = Object.fromEntries([...names].map((n) => [n, PROBE]));
  const hosts = [...apiHosts, ...apiHosts.map((h) => `${PROBE}.${h}`), ...rules.flatMap((r) => (r.host !== undefined ? [expandPlaceholders(r.host, variables).replace(/\*/g, PROBE)] : []))];
  const paths = ["/", ...rules.flatMap((r) => (r.pathPrefix !== undefined ? [expandPlaceholders(r.pathPrefix, variables)] : []))];
  return hosts.some(
    (host) => apiHostsAllow(apiHosts, host) && METHODS.some((method) => paths.some((path) => evaluatePolicy(agent.egress, method, `https://${host}${path}`, variables).decision === "allow")),
  );
}

/** Whether the agent's policy allows the MCP client's requests to the server's URL, with no variable needed. */
export function policyReachesMcp(agent: AgentModel, url: string): boolean {
  return evaluatePolicy(agent.egress, "POST", url, {}).decision === "allow";
}

/** Whether an MCP server's URL is one its credential may be sent to (its host under `apiHosts`). */
export function mcpUrlCarried(pack: ConnectionPack): boolean {
  const url = pack.provider.reach.mcp?.server.url;
  if (url === undefined) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === "https:" || parsed.protocol === "http:") && apiHostsAllow(pack.provider.apiHosts ?? [], parsed.hostname);
}

function reaches(agent: AgentModel, pack: ConnectionPack): string | undefined {
  const hosts = pack.provider.apiHosts ?? [];
  const rule = agent.egress.source === "allowedHosts" ? "allowedHosts" : "access policy";
  if (pack.provider.reach.openapi && policyReaches(agent, hosts)) return `its ${rule} allows requests to hosts under ${hosts.join(", ")}`;
  const mcp = pack.provider.reach.mcp;
  if (mcp && mcpUrlCarried(pack) && policyReachesMcp(agent, mcp.server.url)) return `its ${rule} allows POST to the server URL`;
  return undefined;
}

export function assignPacks(model: TeamModel, packs: readonly ConnectionPack[], explicit: readonly ExplicitConnection[]): { assignments: PackAssignment[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const assignments: PackAssignment[] = [];
  const byId = new Map(packs.map((p) => [p.provider.id, p]));
  const agentKeys = new Set(model.agents.map((a) => a.key));
  const given = new Set<string>();
  for (const e of explicit) {
    const problems = [
      ...(agentKeys.has(e.agent) ? [] : [`no agent has the key "${e.agent}"`]),
      ...(byId.has(e.provider) ? [] : [`no connection pack defines the provider "${e.provider}"`]),
    ];
    if (problems.length) {
      diagnostics.push(makeDiagnostic("E_CONNECTION_UNKNOWN", "", { line: 0, column: 0 }, `--connection ${e.agent}=${e.provider}: ${problems.join("; ")}`, { file: "--connection" }));
      continue;
    }
    const id = `${e.agent}\u0000${e.provider}`;
    if (given.has(id)) continue;
    given.add(id);
    assignments.push({ agent: e.agent, provider: e.provider, why: `named with --connection ${e.agent}=${e.provider}` });
  }
  for (const agent of model.agents) {
    for (const pack of packs) {
      const hosts = pack.provider.apiHosts ?? [];
      if (!hosts.length || given.has(`${agent.key}\u0000${pack.provider.id}`)) continue;
      const why = reaches(agent, pack);
      if (why === undefined) continue;
      given.add(`${agent.key}\u0000${pack.provider.id}`);
      assignments.push({ agent: agent.key, provider: pack.provider.id, why });
    }
  }
  const order = new Map(model.agents.map((a, i) => [a.key, i]));
  assignments.sort((a, b) => order.get(a.agent)! - order.get(b.agent)! || a.provider.localeCompare(b.provider));
  return { assignments, diagnostics };
}
