// Secrets: with sentinel values in the environment for every secret, variable and provider
// key a definition names, exporting it (library and CLI, every target and sink) writes none
// of them into any file or any output line. A literal webhook secret in the definition stays
// in the provenance copy only.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { TARGETS, targetNames } from "../../src/targets/index.js";
import { runCli } from "../helpers/cli.js";
import { definitionText, hostileDefinition } from "./arbitrary.js";

const PROVIDER_KEYS = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY", "MODEL", "TEAM_INPUTS"];
const INSTALLED = new URL("../fixtures/hostile/installed/", import.meta.url);

const work = mkdtempSync(join(tmpdir(), "envelope-hostile-secrets-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const webhookSecret = `whsec_${randomUUID()}`;
const definitions: Array<{ id: string; text: string }> = [
  ...readdirSync(INSTALLED).map((f) => ({ id: f, text: readFileSync(new URL(f, INSTALLED), "utf8") })),
  ...fc.sample(hostileDefinition, { numRuns: 30, seed: 99 }).map((d, i) => ({ id: `generated[${i}]`, text: definitionText(d) })),
  {
    id: "literal webhook secret",
    text: JSON.stringify({
      $schema: "https://schema.openenvelope.org/team/v1.json",
      name: "Webhook",
      slug: "webhook",
      version: "1.0.0",
      description: "An event schedule with its secret written in the file.",
      visibility: "private",
      requiredSecrets: ["STRIPE_KEY"],
      agents: [{ key: "a", name: "A", title: "A", role: "r", prompt: "Uses {{STRIPE_KEY}}.", allowedHosts: ["api.stripe.com"] }],
      schedule: { type: "event", webhookSecret, label: "On a webhook" },
    }),
  },
];

function namesOf(text: string): string[] {
  const def = JSON.parse(text) as { requiredSecrets?: string[]; requiredVariables?: string[] };
  return [...new Set([...(def.requiredSecrets ?? []), ...(def.requiredVariables ?? []), ...PROVIDER_KEYS])];
}

/** Runs `fn` with a fresh sentinel value for each name in process.env, restoring it after. */
async function withSentinels<T>(names: string[], fn: (sentinels: string[], env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const saved = new Map(names.map((n) => [n, process.env[n]]));
  const sentinels = names.map((n) => `sentinel-${n}-${randomUUID()}`);
  names.forEach((n, i) => (process.env[n] = sentinels[i]));
  try {
    return await fn(sentinels, { ...process.env, NO_COLOR: "1" });
  } finally {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  }
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).map((p) => join(dir, p)).filter((p) => statSync(p).isFile());
}

/** The provenance copy of the definition, and the pristine copy of the project that contains it. */
const holdsDefinition = (path: string) => path.endsWith("/envelope.json") || path.endsWith(".envelope/pristine.json");

const leaks = (text: string, sentinels: string[]) => sentinels.filter((s) => text.includes(s));

describe("secrets never reach an exported project or the output", () => {
  it.each(targetNames())("%s: library export and every CLI sink", async (target) => {
    const found: string[] = [];
    for (const [i, { id, text }] of definitions.entries()) {
      await withSentinels(namesOf(text), async (sentinels, env) => {
        let result: ReturnType<typeof exportDefinition> | undefined;
        try {
          result = exportDefinition(text, TARGETS[target]!);
        } catch (e) {
          found.push(`${id}: export crashed: ${(e as Error).message.slice(0, 200)}`);
        }
        // Every definition here is valid: a refused export would check nothing below.
        if (result && !result.ok) found.push(`${id}: export refused: ${JSON.stringify(result.diagnostics).slice(0, 200)}`);
        for (const [path, entry] of result?.files?.entries() ?? []) {
          const content = Buffer.from(entry.bytes).toString("utf8");
          for (const s of leaks(content, sentinels)) found.push(`${id}: ${path} holds ${s}`);
          if (!holdsDefinition(path) && content.includes(webhookSecret)) found.push(`${id}: ${path} holds the webhook secret`);
        }
        const file = join(work, `${target}-${i}.envelope.json`);
        writeFileSync(file, text);
        const out = join(work, `${target}-${i}`);
        for (const args of [
          ["export", file, "--target", target, "--out", out, "--json"],
          ["export", file, "--target", target, "--zip", `${out}.zip`],
          ["export", file, "--target", target, "--dry-run", "--strict"],
          ["validate", file, "--format", "json"],
          ["inspect", file],
          ["inspect", file, "--json"],
        ]) {
          const r = await runCli(args, env).catch((e: Error) => ({ stdout: "", stderr: `crashed: ${e.message}` }));
          if (r.stderr.startsWith("crashed: ")) found.push(`${id}: envelope ${args.join(" ")} ${r.stderr.slice(0, 200)}`);
          // The sinks must have written something to check (--strict may refuse a lossy export).
          if (args.includes("--out") || args.includes("--zip")) if ("code" in r && r.code !== 0) found.push(`${id}: envelope ${args.join(" ")} exited ${r.code}`);
          for (const s of leaks(r.stdout + r.stderr, [...sentinels, webhookSecret])) found.push(`${id}: envelope ${args[0]} printed ${s}`);
        }
        // The ZIP holds the same file set, checked above (its entries are compressed).
        const written = filesUnder(out);
        if (written.length === 0) found.push(`${id}: export --out wrote nothing to check`);
        for (const path of written) {
          const secrets = holdsDefinition(path) ? sentinels : [...sentinels, webhookSecret];
          for (const s of leaks(readFileSync(path).toString("latin1"), secrets)) found.push(`${id}: ${path} holds ${s}`);
        }
      });
    }
    expect(found).toEqual([]);
  }, 120_000);
});
