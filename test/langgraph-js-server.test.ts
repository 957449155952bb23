// A gated langgraph-js export gives the Agent Server an http.app (src/server.ts) that cleans each
// run's command.resume before the server stores it (envelope-runtime-js's resumeRedaction); a
// team without gates, which never waits for a resume, gets none. The real server path is
// test/realpath/langgraph-js-dev.test.ts.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { exportFile } from "./helpers/export.js";

describe("langgraph-js export: the Agent Server's http.app", () => {
  it("a gated pipeline: langgraph.json names src/server.ts's app, which is resumeRedaction(TEAM); the README says what it does", () => {
    const files = exportFile(join(ROOT, "test/fixtures/valid/content-studio.envelope.json"), "langgraph-js");
    expect(JSON.parse(files.text("langgraph.json")!)).toMatchObject({ http: { app: "./src/server.ts:app" } });
    const server = files.text("src/server.ts")!;
    expect(server).toContain('import { resumeRedaction } from "envelope-runtime-js/server";');
    expect(server).toContain("export const app = resumeRedaction(TEAM);");
    expect(files.text("README.md")).toContain("`src/server.ts`) cleans each run's `command.resume` before the server stores it");
  });

  it("a hierarchy (no gates): no server module, no http.app", () => {
    const files = exportFile(join(ROOT, "examples/support-tier.envelope.json"), "langgraph-js");
    expect(files.text("src/server.ts")).toBeUndefined();
    expect(JSON.parse(files.text("langgraph.json")!)).not.toHaveProperty("http");
    expect(files.text("README.md")).not.toContain("src/server.ts");
  });
});
