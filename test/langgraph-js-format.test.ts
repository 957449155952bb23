// The langgraph-js formatter's worker (src/targets/langgraph-js/format.ts) runs CommonJS code:
// a process started with --input-type=module passed that flag on to it, the worker could not
// start, and the exporting thread, blocked on its answer, waited 120 s and failed.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

describe("langgraph-js's formatter", () => {
  it("formats in a process started with --input-type=module", () => {
    const probe = [
      `import { formatAll } from ${JSON.stringify(join(ROOT, "dist/targets/langgraph-js/format.js"))};`,
      'process.stdout.write(JSON.stringify(formatAll([{ path: "a.ts", text: "const  a=1", parser: "typescript" }])));',
    ].join("\n");
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8", timeout: 100_000 });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(["const a = 1;\n"]);
  }, 110_000);
});
