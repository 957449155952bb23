// What the export did with each connection pack, for the loss report's Connections section and
// the README: which agent got which pack and why (assign.ts), which tools that made, and what is
// not carried (an MCP server outside its own apiHosts; reach.integration is not portable; a pack
// no agent can use), and an OpenAPI server outside its apiHosts (carried, its calls refused).
import { apiHostsAllow } from "./api-hosts.js";
import { mcpUrlCarried } from "./assign.js";
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
    // Carried all the same (the export's warning W_PACK_SERVER_OUTSIDE_API_HOSTS says so too).
    const outside = api && !apiHostsAllow(pack.provider.apiHosts ?? [], new URL(api.baseUrl).hostname) ? `; but its server ${api.baseUrl} is not under its apiHosts (${(pack.provider.apiHosts ?? []).join(", ") || "none declared"}): every call is refused at run time` : "";
    for (const a of given) {
      if (api) rows.push({ provider: id, agent: a.agent, status: "carried", detail: `${api.operations.length} OpenAPI tool${api.operations.length === 1 ? "" : "s"} (${api.operations.map((o) => o.tool).join(", ")}): ${a.why}${outside}` });
    }
    if (!given.length && api) rows.push({ provider: id, status: "dropped", detail: `given to no agent: no agent's access policy or allowedHosts allows requests to ${(pack.provider.apiHosts ?? []).join(", ") || "its apiHosts (none declared)"}, and no --connection names it` });
    const mcp = pack.provider.reach.mcp;
    if (mcp && !mcpUrlCarried(pack)) {
      rows.push({ provider: id, status: "dropped", detail: `reach.mcp (${mcp.server.url}) is not carried: its host is not under the pack's apiHosts (${(pack.provider.apiHosts ?? []).join(", ") || "none declared"}), so the pack's credential may not be sent to it` });
    } else if (mcp) {
      for (const a of given) rows.push({ provider: id, agent: a.agent, status: "carried", detail: `the MCP server ${mcp.server.url} (${mcp.server.transport ?? "http"}), its tools listed from it when the agent is built; ${a.why}` });
      if (!given.length) rows.push({ provider: id, status: "dropped", detail: `given to no agent: no agent's access policy or allowedHosts allows POST to the MCP server ${mcp.server.url}, and no --connection names it` });
    }
    if (pack.provider.reach.integration) rows.push({ provider: id, status: "dropped", detail: `reach.integration (${pack.provider.reach.integration.node}) is not carried: an OpenWOP integration node runs only inside an OpenWOP engine, not in a Python project` });
  }
  return rows;
}
