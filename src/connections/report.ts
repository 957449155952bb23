// What the export did with each connection pack, for the loss report's Connections section and
// the README: which agent got which pack and why (assign.ts), which tools that made, and what is
// not carried (MCP servers not yet; reach.integration is not portable; a pack no agent can use).
import type { TeamConnections } from "./connections.js";

export interface ConnectionRow {
  provider: string;
  /** The agent's key; undefined: the pack went to no agent. */
  agent?: string;
  status: "carried" | "dropped";
  detail: string;
}

export function connectionRows(c: TeamConnections): ConnectionRow[] {
  const rows: ConnectionRow[] = [];
  for (const pack of c.packs) {
    const id = pack.provider.id;
    const api = c.apis.find((a) => a.provider === id);
    const given = c.assignments.filter((a) => a.provider === id);
    for (const a of given) {
      if (api) rows.push({ provider: id, agent: a.agent, status: "carried", detail: `${api.operations.length} OpenAPI tool${api.operations.length === 1 ? "" : "s"} (${api.operations.map((o) => o.tool).join(", ")}): ${a.why}` });
    }
    if (!given.length && api) rows.push({ provider: id, status: "dropped", detail: `given to no agent: no agent's access policy or allowedHosts allows requests to ${(pack.provider.apiHosts ?? []).join(", ") || "its apiHosts (none declared)"}, and no --connection names it` });
    if (pack.provider.reach.mcp) rows.push({ provider: id, status: "dropped", detail: `reach.mcp (${pack.provider.reach.mcp.server.url}) is not carried yet: the exports do not run an MCP client, so the server's tools are not given to any agent` });
    if (pack.provider.reach.integration) rows.push({ provider: id, status: "dropped", detail: `reach.integration (${pack.provider.reach.integration.node}) is not carried: an OpenWOP integration node runs only inside an OpenWOP engine, not in a Python project` });
  }
  return rows;
}
