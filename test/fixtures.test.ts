// The fixture corpus: realistic valid definitions that must pass cleanly, and invalid (or
// warning-producing) definitions with exactly one problem each, whose diagnostics — code,
// severity, pointer, line and column — are written down in test/fixtures/invalid/expected.json.
// The expectations were worked out by reading the files, not by copying the validator's output.
import { describe, it, expect } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { CODES, normalize, validate, type Diagnostic } from "../src/index.js";
import { main } from "../src/cli/main.js";

const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));
const validDir = `${fixturesDir}valid/`;
const invalidDir = `${fixturesDir}invalid/`;
const examplePath = fileURLToPath(new URL("../examples/support-tier.envelope.json", import.meta.url));

const SUFFIX = ".envelope.json";
const validFiles = readdirSync(validDir).filter((f) => f.endsWith(SUFFIX)).sort();
const invalidFiles = readdirSync(invalidDir).filter((f) => f.endsWith(SUFFIX)).sort();

/** Codes a fixture cannot produce: they are about the file system, and tested elsewhere. */
// E_READ and E_FILE_TOO_LARGE are about the path and size, tested in read/cli tests;
// E_SCHEMA is the fallback for schema keywords translate() does not name — none in today's schema;
// E_FORMAT: the schema's only `format` is on `icon`, a registry field (so W_REGISTRY_FIELD).
// The file-system ones, and those of connection packs (not definitions: test/connections/).
const NOT_COVERED_HERE = new Set(["E_READ", "E_FILE_TOO_LARGE", "E_SCHEMA", "E_FORMAT", "E_PACK_CREDENTIAL", "E_PACK_DUPLICATE_PROVIDER", "E_CONNECTION_UNKNOWN", "E_CONNECTION_NO_POLICY", "E_PACK_OPENAPI", "E_PACK_UNUSED", "E_PACK_API_HOST_SUFFIX", "W_PACK_SERVER_OUTSIDE_API_HOSTS"]);

/**
 * Valid fixtures that are expected to produce warnings. content-studio's writer may spend 180000 ms
 * on one call in a run of 30000 ms (the default timeout.runMs): kept as written, the warning is true.
 */
const DOCUMENTED_WARNINGS: Record<string, string[]> = { "content-studio.envelope.json": ["W_AGENT_TIMEOUT_RUN"] };

interface ExpectedDiagnostic {
  code: string;
  severity: "error" | "warning";
  pointer: string;
  line: number;
  column: number;
  /** Must occur in the message or the hint. */
  hintIncludes?: string;
}

interface ExpectedFile {
  about: string;
  diagnostics: ExpectedDiagnostic[];
}

const expectedFile = JSON.parse(readFileSync(`${invalidDir}expected.json`, "utf8")) as { fixtures: Record<string, ExpectedFile> };
const expected = expectedFile.fixtures;

const bytesOf = (path: string): Uint8Array => new Uint8Array(readFileSync(path));
const shape = (d: Pick<Diagnostic, "code" | "severity" | "pointer" | "line" | "column">) => ({
  code: d.code,
  severity: d.severity,
  pointer: d.pointer,
  line: d.line,
  column: d.column,
});

// ---------------------------------------------------------------------------------------------
describe("valid fixtures", () => {
  const cases = [...validFiles.map((f) => ({ name: f, path: validDir + f })), { name: "examples/support-tier.envelope.json", path: examplePath }];

  it.each(cases)("$name validates without errors or undocumented warnings", ({ name, path }) => {
    const result = validate(bytesOf(path), { file: name });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const warnings = result.diagnostics.filter((d) => d.severity === "warning").map((d) => d.code);
    expect(warnings).toEqual(DOCUMENTED_WARNINGS[name] ?? []);
    expect(result.valid).toBe(true);
  });

  it.each(cases)("$name normalizes into a team model", ({ name, path }) => {
    const result = normalize(bytesOf(path), { file: name });
    expect(result.valid).toBe(true);
    expect(result.model).toBeDefined();
    const def = JSON.parse(readFileSync(path, "utf8")) as { slug: string; agents: unknown[] };
    expect(result.model?.team.slug).toBe(def.slug);
    expect(result.model?.agents).toHaveLength(def.agents.length);
  });

  it.each(validFiles)("%s is named after its slug", (file) => {
    const def = JSON.parse(readFileSync(validDir + file, "utf8")) as { slug: string };
    expect(file).toBe(`${def.slug}${SUFFIX}`);
  });

  it.each(validFiles)("%s gives every agent a substantial prompt", (file) => {
    const def = readDefinition(validDir + file);
    for (const agent of def.agents) {
      expect(typeof agent.prompt, `${file} ${String(agent.key)}`).toBe("string");
      expect((agent.prompt as string).length, `${file} ${String(agent.key)}`).toBeGreaterThanOrEqual(250);
      expect(agent.prompt as string, `${file} ${String(agent.key)}`).toMatch(/\{\{[A-Z][A-Z0-9_]*\}\}/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// What the valid corpus claims to exercise; checked on the raw JSON so these tests say what the
// fixtures contain, independently of the model the other tests check.
type Json = Record<string, unknown>;
interface Definition extends Json {
  agents: Json[];
}

function readDefinition(path: string): Definition {
  return JSON.parse(readFileSync(path, "utf8")) as Definition;
}

const corpus = validFiles.map((f) => ({ file: f, def: readDefinition(validDir + f) }));
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

describe("valid corpus coverage", () => {
  it("has a pipeline that fans out and fans in with dependsOn", () => {
    const found = corpus.some(({ def }) => {
      const steps = list(def.pipeline);
      const dependents = new Map<string, number>();
      for (const s of steps) for (const d of list(s.dependsOn)) dependents.set(String(d), (dependents.get(String(d)) ?? 0) + 1);
      const fanIn = steps.some((s) => list(s.dependsOn).length >= 2);
      const fanOut = [...dependents.values()].some((n) => n >= 2);
      return fanIn && fanOut;
    });
    expect(found).toBe(true);
  });

  it("has gates with every trigger, every onReject, recordActions and timeouts", () => {
    const gates = corpus.flatMap(({ def }) => list(def.gates));
    for (const trigger of ["any_approved", "all_resolved", "threshold"]) expect(gates.some((g) => g.trigger === trigger), trigger).toBe(true);
    expect(gates.some((g) => g.trigger === "threshold" && typeof g.thresholdCount === "number")).toBe(true);
    for (const onReject of ["skip", "rerun", "escalate", "halt"]) expect(gates.some((g) => g.onReject === onReject), onReject).toBe(true);
    const verbs = new Set(gates.flatMap((g) => list(g.recordActions).map((a) => a.verb)));
    expect([...verbs].sort()).toEqual(["approve", "reject", "reset", "skip"]);
    const behaviours = new Set(gates.map((g) => obj(g.timeout).behaviour).filter((b) => b !== undefined));
    expect([...behaviours].sort()).toEqual(["escalate", "halt", "proceed"]);
  });

  it("has a three-level hierarchy without a pipeline, with gates naming agent keys", () => {
    const found = corpus.find(({ def }) => {
      if (def.pipeline !== undefined) return false;
      const parent = new Map(def.agents.map((a) => [String(a.key), a.reportsToKey as string | undefined]));
      const depth = (k: string): number => (parent.get(k) === undefined ? 0 : 1 + depth(parent.get(k)!));
      const roots = def.agents.filter((a) => a.reportsToKey === undefined);
      return roots.length === 1 && Math.max(...def.agents.map((a) => depth(String(a.key)))) >= 2 && list(def.gates).length > 0;
    });
    expect(found?.file).toBeDefined();
  });

  it("uses every provider both through `model` and through `modelConfig`", () => {
    const agents = corpus.flatMap(({ def }) => def.agents);
    const viaModel = new Set(agents.map((a) => (typeof a.model === "string" ? a.model.split(":")[0] : undefined)));
    const configs = agents.map((a) => obj(a.modelConfig)).filter((c) => c.provider !== undefined);
    const viaConfig = new Set(configs.map((c) => c.provider));
    for (const provider of ["anthropic", "openai", "google", "mistral", "openrouter"]) {
      expect(viaModel.has(provider), `model ${provider}`).toBe(true);
      expect(viaConfig.has(provider), `modelConfig ${provider}`).toBe(true);
    }
    for (const field of ["temperature", "maxTokens", "timeoutMs"]) expect(configs.some((c) => c[field] !== undefined), field).toBe(true);
  });

  it("has v1.1 schedules: cron with a label, event with a webhook secret, condition with interval and prompt", () => {
    const schedules = corpus.map(({ def }) => obj(def.schedule));
    expect(schedules.some((s) => s.type === "cron" && typeof s.cron === "string" && typeof s.label === "string")).toBe(true);
    expect(schedules.some((s) => s.type === "event" && typeof s.webhookSecret === "string")).toBe(true);
    expect(schedules.some((s) => s.type === "condition" && typeof s.conditionInterval === "string" && typeof s.conditionPrompt === "string")).toBe(true);
  });

  it("has a v1.2 workspace with owned, id and pii columns, status values and triggers", () => {
    const docs = corpus.flatMap(({ def }) => list(def.workspace));
    const columns = docs.flatMap((d) => list(d.columns));
    expect(new Set(columns.map((c) => c.owner))).toEqual(new Set(["agent", "human", "both"]));
    expect(columns.some((c) => c.id === true)).toBe(true);
    expect(columns.some((c) => c.pii === true)).toBe(true);
    expect(docs.some((d) => list(d.statusValues).length > 0 && list(d.triggers).length > 0)).toBe(true);
    expect(new Set(docs.flatMap((d) => list(d.triggers).map((t) => t.action ?? "run")))).toEqual(new Set(["run", "notify"]));
  });

  it("has egress rules: allowedHosts, and access policies with wildcards, methods, pathPrefix and deny rules", () => {
    const agents = corpus.flatMap(({ def }) => def.agents);
    expect(agents.some((a) => list(a.allowedHosts).length > 0)).toBe(true);
    const rules = agents.flatMap((a) => list(obj(a.accessPolicy).rules));
    expect(rules.some((r) => typeof r.host === "string" && r.host.startsWith("*."))).toBe(true);
    expect(rules.some((r) => list(r.methods).length > 0)).toBe(true);
    expect(rules.some((r) => typeof r.pathPrefix === "string")).toBe(true);
    expect(rules.some((r) => r.action === "deny")).toBe(true);
    expect(agents.some((a) => obj(a.accessPolicy).defaultAction === "allow")).toBe(true);
  });

  it("has a team timeout and team metadata", () => {
    expect(corpus.some(({ def }) => obj(def.timeout).runMs !== undefined && obj(def.timeout).agentMs !== undefined)).toBe(true);
    expect(corpus.some(({ def }) => typeof obj(def.metadata).generatedBy === "string")).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
describe("invalid fixtures", () => {
  it.each(invalidFiles)("%s yields exactly its expected diagnostics", (file) => {
    const entry = expected[file];
    expect(entry, `no entry for ${file} in expected.json`).toBeDefined();
    const want = entry!.diagnostics;
    const result = validate(bytesOf(invalidDir + file), { file });
    expect(result.diagnostics.map(shape)).toEqual(want.map(shape));
    for (const [i, w] of want.entries()) {
      if (w.hintIncludes === undefined) continue;
      const got = result.diagnostics[i]!;
      expect(`${got.message}\n${got.hint ?? ""}`, `${file} ${w.code}`).toContain(w.hintIncludes);
    }
    expect(result.valid).toBe(!want.some((d) => d.severity === "error"));
  });
});

// ---------------------------------------------------------------------------------------------
describe("fixture corpus meta", () => {
  const allExpected = Object.values(expected).flatMap((e) => e.diagnostics);

  it("covers every diagnostic code except the file-system ones", () => {
    const covered = new Set(allExpected.map((d) => d.code));
    const missing = Object.keys(CODES).filter((c) => !NOT_COVERED_HERE.has(c) && !covered.has(c));
    expect(missing).toEqual([]);
  });

  it("has at least 40 invalid and 7 valid fixtures", () => {
    expect(invalidFiles.length).toBeGreaterThanOrEqual(40);
    expect(validFiles.length).toBeGreaterThanOrEqual(7);
  });

  it("has an expected.json entry for every invalid file, and a file for every entry", () => {
    expect(Object.keys(expected).sort()).toEqual(invalidFiles);
  });

  it("names every invalid file <code-lowercase>-<short-what> after a code it expects", () => {
    for (const file of invalidFiles) {
      const m = /^([ew]_[a-z0-9_]+)-[a-z0-9-]+\.envelope\.json$/.exec(file);
      expect(m, file).not.toBeNull();
      const codes = expected[file]!.diagnostics.map((d) => d.code.toLowerCase());
      expect(codes, file).toContain(m![1]);
    }
  });

  it("writes expectations with known codes, their fixed severity, and in position order", () => {
    for (const [file, entry] of Object.entries(expected)) {
      expect(entry.diagnostics.length, file).toBeGreaterThan(0);
      for (const d of entry.diagnostics) {
        expect(Object.keys(CODES), file).toContain(d.code);
        expect(d.severity, `${file} ${d.code}`).toBe(CODES[d.code as keyof typeof CODES]);
        expect(d.line, file).toBeGreaterThanOrEqual(1);
        expect(d.column, file).toBeGreaterThanOrEqual(1);
      }
      const positions = entry.diagnostics.map((d) => [d.line, d.column] as const);
      const sorted = [...positions].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      expect(positions, file).toEqual(sorted);
    }
  });

  it("keeps the byte-level fixtures byte-exact", () => {
    const bom = bytesOf(`${invalidDir}w_utf8_bom-otherwise-valid.envelope.json`);
    expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    for (const file of invalidFiles.filter((f) => f.startsWith("e_encoding-"))) {
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytesOf(invalidDir + file)), file).toThrow();
    }
    expect(readFileSync(`${invalidDir}e_empty_file-zero-bytes.envelope.json`).length).toBe(0);
    expect(readFileSync(`${invalidDir}e_reports_to_unknown-windows-line-endings.envelope.json`, "utf8")).toContain("\r\n");
  });
});

// ---------------------------------------------------------------------------------------------
describe("--strict", () => {
  // A definition whose only problem is a warning: valid by default, invalid under --strict.
  const warningFixture = "w_model_format-missing-provider.envelope.json";

  it("turns the warning fixture invalid through the library option", () => {
    const bytes = bytesOf(invalidDir + warningFixture);
    const lenient = validate(bytes);
    expect(lenient.valid).toBe(true);
    expect(lenient.diagnostics.map((d) => [d.code, d.severity])).toEqual([["W_MODEL_FORMAT", "warning"]]);
    const strict = validate(bytes, { strict: true });
    expect(strict.valid).toBe(false);
    expect(strict.diagnostics.map(shape)).toEqual(lenient.diagnostics.map((d) => ({ ...shape(d), severity: "error" })));
  });

  it("turns the warning fixture invalid on the command line (exit 0 → 1)", async () => {
    const run = async (args: string[]) => {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let out = "";
      stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
      const code = await main(["validate", invalidDir + warningFixture, "--format", "json", ...args], { stdout, stderr, env: { NO_COLOR: "1" } });
      return { code, report: JSON.parse(out) as { valid: boolean; files: Array<{ diagnostics: Diagnostic[] }> } };
    };
    const lenient = await run([]);
    expect(lenient.code).toBe(0);
    expect(lenient.report.valid).toBe(true);
    const strict = await run(["--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.report.valid).toBe(false);
    expect(strict.report.files[0]!.diagnostics.map((d) => [d.code, d.severity])).toEqual([["W_MODEL_FORMAT", "error"]]);
  });

  it("leaves every valid fixture valid under --strict", () => {
    for (const file of validFiles.filter((f) => DOCUMENTED_WARNINGS[f] === undefined)) {
      expect(validate(bytesOf(validDir + file), { strict: true }).valid, file).toBe(true);
    }
  });
});
