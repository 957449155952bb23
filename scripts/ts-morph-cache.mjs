// After scripts/bundle-cli.mjs in `npm run build`: the V8 code caches of ts-morph's three big
// files (src/targets/langgraph-js/load-ts-morph.ts) and of prettier's standalone build and
// plugins (format.ts, in its worker), written by one export of the example to
// langgraph-js through the bundle with ENVELOPE_TS_MORPH_CACHE_WRITE set, so they hold what
// an export compiles. Old caches (another Node, another ts-morph) are removed first.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const cacheDir = join(root, "dist/targets/langgraph-js/code-cache");
rmSync(cacheDir, { recursive: true, force: true });
const scratch = mkdtempSync(join(tmpdir(), "envelope-ts-morph-cache-"));
try {
  const run = spawnSync(process.execPath, [join(root, "bin/envelope.js"), "export", join(root, "examples/support-tier.envelope.json"), "--target", "langgraph-js", "--out", join(scratch, "out")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ENVELOPE_TS_MORPH_CACHE_WRITE: "1" },
  });
  if (run.status !== 0) throw new Error(`the export that writes ts-morph's code cache failed (exit ${run.status})`);
  const written = readdirSync(cacheDir);
  if (written.length !== 7) throw new Error(`expected the code caches of ts-morph's three files and prettier's four, got ${written.join(", ")}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
