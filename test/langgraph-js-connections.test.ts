// The langgraph-js export carries a team's connection packs as the Python targets do: the
// packs as data in src/team.ts (CONNECTIONS), given to the runtime by src/graph.ts, their
// credentials in .env.example, and a loss report and README that say carried, not dropped.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportFile } from "./helpers/export.js";
import { ROOT } from "./helpers/cli.js";

const dir = join(ROOT, "test/fixtures/connections");
const files = () => exportFile(join(dir, "helpdesk-triage.envelope.json"), "langgraph-js", [dir]);

describe("langgraph-js: connection packs", () => {
  it("declares the packs an agent got, and the graph gives them to the runtime", () => {
    const f = files();
    const team = f.text("src/team.ts")!;
    expect(team).toContain('import type { ConnectionsSpec, TeamSpec } from "envelope-runtime-js";');
    expect(team).toContain("export const CONNECTIONS: ConnectionsSpec = {");
    expect(team).toContain('url: "https://mcp.docs.example.com/mcp"');
    expect(team).toContain('tool: "helpdesk_get_ticket"');
    expect(team).toMatch(/agents: \{\n\s+triager: \["docs-search", "helpdesk"\]|agents: \{\n\s+triager: \["helpdesk", "docs-search"\]/);
    expect(team).toMatch(/secrets: \["DOCS_SEARCH_TOKEN", "HELPDESK_API_KEY"\]|secrets: \["HELPDESK_API_KEY", "DOCS_SEARCH_TOKEN"\]/);
    // Names of variables only: no credential value is ever written.
    expect(f.text("src/graph.ts")).toContain("new TeamNodes(TEAM, SCHEMAS, { connections: CONNECTIONS, ...rest })");
    expect(f.text(".env.example")).toMatch(/# --connections: the connection packs' credentials .*\nDOCS_SEARCH_TOKEN=\nHELPDESK_API_KEY=\n/);
    expect(f.text("package.json")).toContain('"@langchain/mcp-adapters"');
  });

  it("reports each pack carried, the MCP server's tools listed when the agent starts a conversation", () => {
    const f = files();
    const loss = f.text("ENVELOPE_EXPORT.md")!;
    expect(loss).not.toContain("does not carry connection packs");
    expect(loss).toContain("| `docs-search` | `triager` | carried | the MCP server https://mcp.docs.example.com/mcp (http), its tools listed from it when the agent starts a conversation;");
    expect(loss).toMatch(/\| `helpdesk` \| `triager` \| carried \| 2 OpenAPI tools/);
    const readme = f.text("README.md")!;
    expect(readme).not.toContain("not carried by this target yet");
    expect(readme).toContain("through `@langchain/mcp-adapters`");
    expect(readme).toContain("redacted (`{{NAME}}`)");
    expect(readme).toMatch(/\| Tess \| `triager` \|[^\n]*`helpdesk_get_ticket`[^\n]*`docs_search_\*`/);
  });

  it("leaves a team without packs as it was (no CONNECTIONS)", () => {
    const f = exportFile(join(dir, "helpdesk-triage.envelope.json"), "langgraph-js");
    expect(f.text("src/team.ts")).not.toContain("CONNECTIONS");
    expect(f.text("src/graph.ts")).toContain("new TeamNodes(TEAM, SCHEMAS, rest)");
    expect(f.text("README.md")).not.toContain("## Connection packs");
  });
});
