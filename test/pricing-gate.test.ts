// `pricing.amount` is required for the `per_run` and `per_k_tokens` models (the schema's own
// words). `envelope validate` is the registry's gate, so there it is an error; `envelope
// export` carries no pricing, so there it is a registry warning and the export goes on
// (--strict refuses it, as any warning); `inspect` and `normalize()`, which give the model an
// export builds, read it as export does. Through the CLI as a process, and the HTTP API.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runBin } from "./helpers/cli.js";
import { post, serve, type Served } from "./serve/helpers.js";

function teamWithPricing(pricing: Record<string, unknown>): string {
  const def = JSON.parse(readFileSync(join(ROOT, "examples/support-tier.envelope.json"), "utf8"));
  def.pricing = pricing;
  const file = join(mkdtempSync(join(tmpdir(), "envelope-pricing-")), "team.envelope.json");
  writeFileSync(file, JSON.stringify(def, null, 2) + "\n");
  return file;
}

describe("pricing without amount", () => {
  it.each(["per_run", "per_k_tokens"])("%s: an error from validate, a warning from export (which goes on)", (model) => {
    const file = teamWithPricing({ model, currency: "USD" });
    const line = readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(`"model": "${model}"`)) + 1;

    const checked = runBin(["validate", file]);
    expect(checked.code, checked.stdout).toBe(1);
    expect(checked.stdout).toContain(`${file}:${line}:14: error E_PRICING_AMOUNT_MISSING pricing model "${model}" needs \`amount\``);
    expect(checked.stdout).toContain(`${file}: invalid (1 error, 0 warnings)`);

    const exported = runBin(["export", file, "--target", "crewai", "--dry-run"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`${file}:${line}:14: warning W_REGISTRY_FIELD pricing model "${model}" needs \`amount\` (E_PRICING_AMOUNT_MISSING; registry-only: no runtime reads it, the export goes on)`);
    expect(exported.stdout).toContain("would write");

    // inspect prints the model an export builds, so it reads the definition as export does.
    const inspected = runBin(["inspect", file, "--json"]);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stderr).toContain("warning W_REGISTRY_FIELD");
    expect(JSON.parse(inspected.stdout).registry.pricing).toEqual({ model, currency: "USD" });

    const strict = runBin(["export", file, "--target", "langgraph", "--dry-run", "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("error W_REGISTRY_FIELD");
  });

  it("with its amount: valid, and exported without a word about pricing", () => {
    const file = teamWithPricing({ model: "per_run", amount: 0.05, currency: "USD" });
    expect(runBin(["validate", file]).code).toBe(0);
    const exported = runBin(["export", file, "--target", "crewai", "--dry-run"]);
    expect([exported.code, exported.stderr]).toEqual([0, ""]);
  });
});

describe("pricing without amount over HTTP", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("/v1/validate: invalid, the error at /pricing/model; /v1/exports: 200, the registry warning", async () => {
    const body = readFileSync(teamWithPricing({ model: "per_run", currency: "USD" }));
    const checked = await post(s, "/v1/validate", body);
    expect(checked.status).toBe(200);
    expect(checked.json).toMatchObject({ valid: false, errors: 1 });
    expect(checked.json.diagnostics).toEqual([expect.objectContaining({ code: "E_PRICING_AMOUNT_MISSING", severity: "error", pointer: "/pricing/model" })]);
    const exported = await post(s, "/v1/exports?target=langgraph", body, { accept: "application/json" });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.json.diagnostics).toEqual([expect.objectContaining({ code: "W_REGISTRY_FIELD", severity: "warning", message: expect.stringContaining("(E_PRICING_AMOUNT_MISSING; registry-only") })]);
  }, 60_000);
});
