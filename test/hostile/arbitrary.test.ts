// The hostile arbitrary produces definitions validate() accepts (warnings allowed), with
// every structure and every kind of hostile text represented in a fixed-seed sample.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validate } from "../../src/validate/validate.js";
import { definitionText, hostileDefinition } from "./arbitrary.js";

type Def = Record<string, any>;

const sample = fc.sample(hostileDefinition, { numRuns: 400, seed: 4242 }) as Def[];

describe("hostile definition arbitrary", () => {
  it("produces only definitions without validation errors", () => {
    const invalid = sample
      .map((d, i) => ({ i, errors: validate(definitionText(d)).diagnostics.filter((x) => x.severity === "error").map((x) => `${x.code} ${x.pointer} ${x.message}`) }))
      .filter((r) => r.errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it("covers every structure and kind of hostile text", () => {
    const texts = (d: Def) => definitionText(d, false);
    const agents = (d: Def) => d.agents as Def[];
    const gates = (d: Def) => (d.gates ?? []) as Def[];
    const fields = (d: Def) => [...Object.values(d.inputs ?? {}), ...Object.values(d.outputs ?? {})] as Def[];
    const prompts = (d: Def) => agents(d).map((a) => (a.prompt ?? "") as string).join("\n");
    const features: Record<string, (d: Def) => boolean> = {
      hierarchy: (d) => agents(d).some((a) => a.reportsToKey !== undefined),
      "several roots": (d) => agents(d).filter((a) => a.reportsToKey === undefined).length > 1,
      pipeline: (d) => (d.pipeline ?? []).length > 1,
      "explicit dependsOn": (d) => (d.pipeline ?? []).some((s: Def) => Array.isArray(s.dependsOn) && s.dependsOn.length > 0),
      "gate after a step": (d) => (d.pipeline ?? []).length > 0 && gates(d).length > 0,
      "gate record actions": (d) => gates(d).some((g) => (g.recordActions ?? []).length > 0),
      "gate timeout": (d) => gates(d).some((g) => g.timeout !== undefined),
      "threshold gate": (d) => gates(d).some((g) => g.trigger === "threshold"),
      "enum field": (d) => fields(d).some((f) => f.enum !== undefined),
      "default value": (d) => fields(d).some((f) => "default" in f),
      "secret in a prompt": (d) => (d.requiredSecrets as string[]).some((s) => prompts(d).includes(`{{${s}}}`)),
      "variable in a prompt": (d) => (d.requiredVariables as string[]).some((s) => prompts(d).includes(`{{${s}}}`)),
      "input in a prompt": (d) => Object.keys(d.inputs ?? {}).some((k) => prompts(d).includes(`{{${k.toUpperCase().replace(/[^A-Z0-9_]/gu, "_")}}}`)),
      allowedHosts: (d) => agents(d).some((a) => a.allowedHosts !== undefined),
      accessPolicy: (d) => agents(d).some((a) => a.accessPolicy?.rules?.length > 0),
      modelConfig: (d) => agents(d).some((a) => a.modelConfig !== undefined),
      "cron schedule": (d) => d.schedule?.type === "cron",
      "event schedule": (d) => d.schedule?.type === "event",
      "condition schedule": (d) => d.schedule?.type === "condition",
      "continuous schedule": (d) => d.schedule?.type === "continuous",
      workspace: (d) => (d.workspace ?? []).length > 0,
      "100 kB text": (d) => texts(d).length > 100_000,
      "lone surrogate": (d) => /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/.test(texts(d)),
      "bidi override": (d) => texts(d).includes("\u202e"),
      "NUL": (d) => texts(d).includes("\\u0000"),
      "U+2028": (d) => texts(d).includes("\\u2028") || texts(d).includes("\u2028"),
      "triple quotes": (d) => texts(d).includes('\\"\\"\\"'),
      handlebars: (d) => texts(d).includes("{{#each"),
      "GitHub expression": (d) => texts(d).includes("${{ secrets"),
      "YAML document marker": (d) => texts(d).includes("---"),
      "HTML script": (d) => texts(d).includes("</script>"),
      "keyword key": (d) => agents(d).some((a) => ["class", "def", "import", "lambda", "return"].includes(a.key)),
      "leading digit key": (d) => agents(d).some((a) => /^[0-9]/.test(a.key)),
      "module slug": (d) => ["crewai", "langgraph", "typing", "test", "tests"].includes(d.slug),
      "keys that collide once normalized": (d) => {
        const keys = [...agents(d).map((a) => a.key as string), ...Object.keys(d.inputs ?? {})];
        const norm = keys.map((k) => k.toLowerCase().replace(/[^a-z0-9]+/g, "_"));
        return new Set(norm).size < new Set(keys).size;
      },
      "path-like field name": (d) => Object.keys({ ...d.inputs, ...d.outputs }).some((k) => k.includes("..") || k.includes("/")),
    };
    const counts = Object.fromEntries(Object.entries(features).map(([name, has]) => [name, sample.filter(has).length]));
    const rare = Object.entries(counts).filter(([, n]) => n < 3);
    expect(rare, JSON.stringify(counts)).toEqual([]);
  });
});
