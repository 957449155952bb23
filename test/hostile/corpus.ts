// The checked-in corpus (test/fixtures/hostile/corpus.json), one small definition per entry,
// with the entry everywhere its kind may go:
//   strings     every free-text field (cut to the schema's length where it has one), a
//               model id, policy hosts, paths and reasons, step labels, gate fields and
//               action labels, input and output keys, enums and defaults, schedule label;
//               even entries run as a pipeline with a gate, odd ones as a hierarchy
//   keys        agent keys and step keys (and the gate name where its pattern allows)
//   slugs       the team's slug, so the package name
//   fieldNames  input, output and gate record field names, referenced from a prompt
//   envNames    a secret (used in a policy host) and a variable (used in a prompt)
import { readFileSync } from "node:fs";
import { SCHEMA_URL } from "./arbitrary.js";

interface Entry {
  value: string;
  why: string;
  repeat?: number;
}

type Kind = "strings" | "keys" | "slugs" | "fieldNames" | "envNames";

const CORPUS = JSON.parse(readFileSync(new URL("../fixtures/hostile/corpus.json", import.meta.url), "utf8")) as Record<Kind, Entry[]>;

export const KINDS: readonly Kind[] = ["strings", "keys", "slugs", "fieldNames", "envNames"];

export function corpusSize(): number {
  return KINDS.reduce((n, k) => n + CORPUS[k].length, 0);
}

const cut = (s: string, max: number) => Array.from(s).slice(0, max).join("") || "x";

function base(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: SCHEMA_URL,
    name: "Hostile corpus",
    slug: "hostile-corpus",
    version: "1.0.0",
    description: "One corpus entry everywhere it may go.",
    visibility: "private",
    agents: [
      { key: "lead", name: "Lead", title: "Lead", role: "manager", prompt: "Lead." },
      { key: "worker", name: "Worker", title: "Worker", role: "specialist", reportsToKey: "lead", prompt: "Work." },
    ],
    ...extra,
  };
}

function withString(s: string, i: number): Record<string, unknown> {
  const obj = (k: string, v: unknown) => Object.assign(Object.create(null) as Record<string, unknown>, { [k]: v });
  const pipeline = i % 2 === 0;
  return base({
    name: cut(s, 80),
    description: cut(s, 300),
    readme: cut(s, 10_000),
    changelog: cut(s, 2000),
    tags: [cut(s, 50)],
    metadata: { generatedBy: s },
    requiredSecrets: ["HOSTILE_SECRET"],
    inputs: obj(s, { type: "string", description: s, enum: [s, `${s}2`], default: s }),
    outputs: obj(s, { type: "string", description: s, default: s }),
    agents: [
      {
        key: "lead",
        name: cut(s, 80),
        title: cut(s, 100),
        role: s,
        capabilities: [s],
        prompt: `${s}{{HOSTILE_SECRET}}${s}`,
        model: `anthropic:${s}`,
        allowedHosts: [s, "api.example.com"],
        metadata: obj(s, s),
      },
      {
        key: "worker",
        name: cut(s, 80),
        title: cut(s, 100),
        role: s,
        reportsToKey: "lead",
        prompt: s,
        modelConfig: { provider: "openai", model: s },
        accessPolicy: { accessPolicyVersion: "1", defaultAction: "deny", rules: [{ host: s, pathPrefix: s, methods: ["GET"], action: "allow", reason: s }, { action: "deny", reason: s }] },
      },
    ],
    ...(pipeline
      ? {
          pipeline: [
            { key: "first", agentKey: "lead", label: s },
            { key: "second", agentKey: "worker", label: s, dependsOn: ["first"] },
          ],
          gates: [{ name: "review", type: "decision", afterStep: "first", triggersStep: "second", fields: [s, "id"], trigger: "any_approved", onReject: "skip", recordActions: [{ label: s, verb: "approve", endpointTemplate: s }] }],
        }
      : {}),
    schedule: { type: "cron", cron: "0 9 * * 1", label: s },
    workspace: [{ name: "doc", type: s, columns: [{ name: cut(s, 1000), owner: "agent" }], statusValues: [s], hypotheses: [s] }],
  });
}

function withKey(k: string): Record<string, unknown> {
  return base({
    agents: [
      { key: k, name: "Lead", title: "Lead", role: "manager", prompt: "Lead." },
      { key: `${k}-2`, name: "Worker", title: "Worker", role: "specialist", reportsToKey: k, prompt: "Work." },
    ],
    pipeline: [
      { key: k, agentKey: k },
      { key: `${k}_2`, agentKey: `${k}-2` },
    ],
    gates: [{ name: /^[a-z0-9-]+$/.test(k) ? k : "gate", type: "decision", afterStep: k, triggersStep: `${k}_2`, fields: [k], trigger: "all_resolved", onReject: "halt" }],
  });
}

function withField(f: string): Record<string, unknown> {
  const ref = f.toUpperCase().replace(/[^A-Z0-9_]/gu, "_");
  const obj = (v: unknown) => Object.assign(Object.create(null) as Record<string, unknown>, { [f]: v, plain: v });
  return base({
    inputs: obj({ type: "string", required: true }),
    outputs: obj({ type: "string" }),
    agents: [
      { key: "lead", name: "Lead", title: "Lead", role: "manager", prompt: `{{${ref}}} and {{PLAIN}}` },
      { key: "worker", name: "Worker", title: "Worker", role: "specialist", prompt: "Work." },
    ],
    pipeline: [
      { key: "first", agentKey: "lead" },
      { key: "second", agentKey: "worker" },
    ],
    gates: [{ name: "review", type: "decision", afterStep: "first", triggersStep: "second", fields: [f, "plain"], trigger: "threshold", thresholdCount: 1, onReject: "rerun" }],
  });
}

function withEnv(e: string): Record<string, unknown> {
  return base({
    requiredSecrets: [e],
    requiredVariables: [`${e}_VAR`],
    agents: [
      { key: "lead", name: "Lead", title: "Lead", role: "manager", prompt: `Use {{${e}_VAR}}.`, allowedHosts: [`{{${e}}}.example.com`] },
      { key: "worker", name: "Worker", title: "Worker", role: "specialist", reportsToKey: "lead" },
    ],
    schedule: { type: "cron", cron: "*/15 * * * *" },
  });
}

export interface CorpusDefinition {
  id: string;
  why: string;
  definition: Record<string, unknown>;
}

export function corpusDefinitions(): CorpusDefinition[] {
  const build: Record<Kind, (value: string, i: number) => Record<string, unknown>> = {
    strings: withString,
    keys: withKey,
    slugs: (slug) => base({ slug }),
    fieldNames: withField,
    envNames: withEnv,
  };
  return KINDS.flatMap((kind) =>
    CORPUS[kind].map((e, i) => {
      const value = e.value.repeat(e.repeat ?? 1);
      return { id: `${kind}[${i}] ${JSON.stringify(e.value).slice(0, 40)}`, why: e.why, definition: build[kind](value, i) };
    }),
  );
}
