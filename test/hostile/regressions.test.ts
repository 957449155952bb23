// Bugs the hostile definitions found, one focused test each (each fails without its fix).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pyComment, pyStr } from "../../src/export/escape/python.js";
import { exportDefinition } from "../../src/export/export.js";
import type { LossEntry } from "../../src/export/loss-report.js";
import { distributionName } from "../../src/model/namer.js";
import { buildScope, inputReferenceName, resolvePlaceholder } from "../../src/model/placeholders.js";
import { DEPENDENCY_DISTRIBUTIONS } from "../../src/model/reserved-words.js";
import { inputFlags, RUNNER_FLAGS } from "../../src/targets/python-common/team-view.js";
import { TARGETS } from "../../src/targets/index.js";
import { agent, team } from "../helpers/definitions.js";
import { checkerGate } from "./harness.js";

function crewai(def: Record<string, unknown>) {
  const r = exportDefinition(JSON.stringify(def), TARGETS.crewai!);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  const pkg = r.model!.names.package;
  return { text: (p: string) => r.files!.text(p.replace("PKG", pkg))!, loss: (pointer: string) => r.loss!.find((e: LossEntry) => e.pointer === pointer) };
}

const gate = checkerGate();
function python(script: string, input: string): string {
  const r = spawnSync(gate.python!, ["-c", script], { input, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

describe("placeholders for inputs (model)", () => {
  it("an exact input key wins over another input's upper-case name; else the first declared", () => {
    const scope = buildScope([], [], ["a-b", "a_b", "A_B"]);
    expect(resolvePlaceholder("A_B", scope)?.target).toBe("A_B");
    expect(resolvePlaceholder("A_B", buildScope([], [], ["a-b", "a_b"]))?.target).toBe("a-b");
  });
  it("the upper-case name has one `_` per character, also beyond the BMP", () => {
    expect(inputReferenceName("a🎉b")).toBe("A_B");
    expect(inputReferenceName("ticket-text")).toBe("TICKET_TEXT");
  });
});

describe("distribution names (model)", () => {
  const python = (file: string) => readFileSync(fileURLToPath(new URL(`../../python/${file}`, import.meta.url)), "utf8");
  const normalized = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");
  const lockNames = ["crewai", "langgraph"].flatMap((lock) => [
    ...[...python(`${lock}.lock`).matchAll(/^([A-Za-z0-9_.-]+)==/gm)].map((m) => normalized(m[1]!)),
    // uv.lock's packages: every platform's (python/<target>.uv-lock.json, what exports lock)
    ...(JSON.parse(python(`${lock}.uv-lock.json`)) as { packages: { name: string }[] }).packages.map((p) => normalized(p.name)),
  ]);
  it("never names a distribution the project installs, and is always a valid name", () => {
    for (const name of lockNames) expect(DEPENDENCY_DISTRIBUTIONS.has(name), `${name} (python/*.lock) is missing from DEPENDENCY_DISTRIBUTIONS`).toBe(true);
    expect(distributionName("crewai")).toBe("crewai-team");
    expect(distributionName("pyyaml")).toBe("pyyaml-team");
    expect(distributionName("-a--b-")).toBe("a-b");
    expect(distributionName("---")).toBe("team");
    expect(distributionName("support-tier")).toBe("support-tier");
  });
});

describe("CrewAI runner flags", () => {
  it("no two inputs and no runner option share a flag; an empty key has none", () => {
    expect(inputFlags(["a-b", "a_b", "help", "inputs", "", "Max Items", "x"])).toEqual(["--a-b", undefined, undefined, undefined, undefined, "--Max Items", "--x"]);
    // --trace FILE is the runner's too (the conversation trace): an input named trace has no flag.
    expect(inputFlags(["trace", "trace_file"])).toEqual([undefined, "--trace-file"]);
  });
  it("the runtime derives the flags by the README's rule; the README lists the others as --inputs only", () => {
    const x = crewai(team({ inputs: { "a-b": { type: "string" }, a_b: { type: "string" } } }));
    // team.py names no flag: envelope-runtime's input_specs gives them, with these options taken.
    expect(x.text("src/PKG/team.py")).not.toContain("flag=");
    const library = readFileSync(new URL("../../python/envelope-runtime/src/envelope_runtime/input_spec.py", import.meta.url), "utf8");
    const taken = [...library.matchAll(/^RUNNER_FLAGS \+?= \(([^)]*)\)/gm)].map((m) => m[1]).join(",");
    expect([...taken.matchAll(/"(--[a-z-]+)"/g)].map((m) => m[1])).toEqual(RUNNER_FLAGS);
    expect(x.text("README.md")).toContain("| none: `a_b` in `--inputs` |");
  });
});

describe.runIf(gate.run)("placeholders.py (both targets)", () => {
  it("fills {{NAME}} for inputs as the model resolves them", () => {
    const script = `
import ast, json, sys
sys.path.insert(0, ${JSON.stringify(fileURLToPath(new URL(".", import.meta.url)))})
from check_project import prompt_functions
f = prompt_functions(ast.parse(open(${JSON.stringify(fileURLToPath(new URL("../../python/envelope-runtime/src/envelope_runtime/placeholders.py", import.meta.url)))}).read()))
inputs = json.loads(sys.stdin.read())
values = f["placeholder_values"]([], {}, inputs, list(inputs))
print(f["render"]("{{TICKET_TEXT}} {{A_B}} {{a_b}} {{a-b}} {{EMOJI__}}", values))
`;
    const inputs = { "ticket-text": "T", "a-b": "1", a_b: "2", A_B: "3", "emoji-🎉": "E" };
    expect(python(script, JSON.stringify(inputs)).trim()).toBe("T 3 2 {{a-b}} E");
  });
});

describe("CrewAI export", () => {
  it("ships a policy that allows nothing, so its tool refuses with the rule's reason", () => {
    const x = crewai(team({ agents: [agent("lead", { allowedHosts: [] }), agent("closed", { reportsToKey: "lead", accessPolicy: { accessPolicyVersion: "1", defaultAction: "deny", rules: [{ action: "deny", reason: "never" }] } })] }));
    const yaml = x.text("src/PKG/config/access_policies.yaml");
    expect(yaml).toContain('"lead":\n  accessPolicy:\n    defaultAction: "deny"\n    rules: []');
    expect(yaml).toContain('"reason": "never"');
  });
  it("an output's default is the result model's default", () => {
    const x = crewai(team({ outputs: { summary: { type: "string", default: "none yet" }, count: { type: "number", required: true, default: 0 } } }));
    expect(x.text("src/PKG/team.py")).toContain('summary: str | None = Field(default="none yet")');
    expect(x.text("src/PKG/team.py")).toContain("count: Number = Field(default=0)");
  });
  it("reports a record action's endpoint and style as not carried", () => {
    const x = crewai(team({
      agents: [agent("a"), agent("b")],
      pipeline: [{ key: "one", agentKey: "a" }, { key: "two", agentKey: "b" }],
      gates: [{ name: "g", type: "decision", afterStep: "one", triggersStep: "two", fields: ["id"], trigger: "any_approved", onReject: "skip", recordActions: [{ label: "OK", verb: "approve", endpointTemplate: "/x/{id}", style: "primary" }] }],
    }));
    expect(x.loss("/gates/0/recordActions/0/endpointTemplate")?.status).toBe("dropped");
    expect(x.loss("/gates/0/recordActions/0/style")?.status).toBe("dropped");
    expect(x.loss("/gates/0/recordActions/0/label")?.status).toBe("carried");
  });
  it("describes every declared schedule in the README, as the loss report says", () => {
    const x = crewai(team({ schedule: { type: "event", label: "On a Stripe webhook" } }));
    expect(x.text("README.md")).toContain("## Schedule\n\nOn a Stripe webhook: the team runs when a signed webhook arrives.");
    expect(x.loss("/schedule/type")?.status).toBe("carried");
    // No webhookSecret named: the receiver's own variable, listed where every secret is.
    expect(x.text("README.md")).toContain("It needs the secret in\n`WEBHOOK_SECRET` at start.");
    expect(x.text(".env.example")).toMatch(/\nWEBHOOK_SECRET=\n/);
    expect(x.loss("/schedule/label")?.status).toBe("carried");
  });
  it("writes lone surrogates, which no Unicode text can hold, as U+FFFD, and reports the fields", () => {
    const x = crewai(team({ description: "half \ud800 pair", inputs: { "k\udc00": { type: "string" } }, agents: [agent("a", { title: "low \udc00", prompt: "low \udc00" }), agent("b", { prompt: "pair 🎉" })] }));
    for (const p of ["/description", "/agents/0/prompt", "/agents/0/title", "/inputs/k\udc00"]) {
      expect(x.loss(p)?.status, p).toBe("approximated");
      expect(x.loss(p)?.detail, p).toContain("U+FFFD");
    }
    expect(x.loss("/agents/1/prompt")?.status).toBe("carried");
    expect(x.text("src/PKG/config/agents.yaml")).toContain('backstory: "low \ufffd"');
    expect(x.text("src/PKG/config/agents.yaml")).toContain('goal: "low \ufffd (specialist)."');
    expect(x.text("src/PKG/team.py")).toContain('alias="k\ufffd"');
  });
  it("the scheduled workflow's own variable cannot collide with a secret's name", () => {
    const x = crewai(team({ requiredSecrets: ["TEAM_INPUTS"], agents: [agent("a", { allowedHosts: ["{{TEAM_INPUTS}}.example.com"] })], schedule: { type: "cron", cron: "0 9 * * 1" } }));
    const env = x.text(".github/workflows/scheduled-run.yml").split("\n").filter((l) => /^ {10}\S/.test(l)).map((l) => l.trim().split(":")[0]);
    expect(env).toEqual([...new Set(env)]); // distinct …
    expect(env).toContain("TEAM_INPUTS"); // … and the secret is there: the check saw the block
  });
});

describe("Python comments and literals", () => {
  it("noncharacters, which YAML readers refuse even in a comment, are replaced or escaped", () => {
    expect(pyComment("a\ufffeb\uffff")).toBe("a?b?");
    expect(pyStr("\ufffe")).toBe('"\\ufffe"');
  });
  it.runIf(gate.run)("a schedule label with a noncharacter leaves the workflow loadable", () => {
    const wf = crewai(team({ schedule: { type: "cron", cron: "0 9 * * 1", label: "Mondays \ufffe" } })).text(".github/workflows/scheduled-run.yml");
    expect(python("import sys, yaml; yaml.safe_load(sys.stdin.read()); print('ok')", wf).trim()).toBe("ok");
  });
});

describe("langgraph-js .env.example", () => {
  it("a model provider named like an Object.prototype member adds no provider key (it crashed the template)", () => {
    const r = exportDefinition(JSON.stringify(team({ agents: [agent("a", { model: "constructor:x" }), agent("b", { model: "__proto__:y" }), agent("c", { model: "openai:gpt-4.1" })] })), TARGETS["langgraph-js"]!);
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    const env = r.files!.text(".env.example")!;
    expect(env).toContain("\nOPENAI_API_KEY=\n");
    expect(env).not.toMatch(/constructor|__proto__|function/i);
  });
});
