// Any model endpoint (issue 13 §2), both targets: MODEL_OVERRIDE / MODEL_<AGENT> resolution
// (model_env.py, framework-free, run on the system Python), the names the README and
// .env.example list, and the provider extras. The generated tests/test_model_env.py prove
// the same on each framework (test/e2e).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { agentModelEnv } from "../src/targets/python-common/model-env-view.js";
import { ROOT } from "./helpers/cli.js";
import { exportFor } from "./helpers/export.js";
import { findPython } from "./e2e/python-env.js";

const MODEL_ENV = `${ROOT}python/envelope-runtime/src/envelope_runtime/model_env.py`;
const python = findPython();

/** Runs `code` with model_env.py imported as `m`; returns its JSON output. */
function py(code: string): unknown {
  if (!python.ok) throw new Error(python.reason);
  const prelude = `import importlib.util, json\nspec = importlib.util.spec_from_file_location("m", ${JSON.stringify(MODEL_ENV)})\nm = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n`;
  const r = spawnSync(python.python, ["-c", prelude + code], { encoding: "utf8", env: { PATH: process.env.PATH } });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe.runIf(python.ok)("model_env.py resolution", () => {
  it("MODEL_<AGENT> wins over MODEL_OVERRIDE, which wins over the definition; both spellings", () => {
    const env = { MODEL_OVERRIDE: "openai/llama3.1", MODEL_LEAD_WRITER: "google:gemini-2.5-flash", MODEL_OTHER: "  " };
    const got = py(`env = ${JSON.stringify(env)}\nprint(json.dumps([m.override(k, env) for k in ["lead-writer", "other", "x"]] + [m.override("x", {})]))`);
    expect(got).toEqual([
      ["MODEL_LEAD_WRITER", "google:gemini-2.5-flash"],
      ["MODEL_OVERRIDE", "openai/llama3.1"], // blank MODEL_OTHER does not count
      ["MODEL_OVERRIDE", "openai/llama3.1"],
      null,
    ]);
    const split = py(`print(json.dumps([m.split_model(v) for v in ["openai:llama3.1:8b", "openrouter/meta/llama", "Ollama:qwen", "gpt-4o", "openai:"]]))`);
    expect(split).toEqual([["openai", "llama3.1:8b"], ["openrouter", "meta/llama"], ["ollama", "qwen"], null, null]);
    const problems = py(`print(json.dumps(m.override_problems(["a", "b"], {"MODEL_OVERRIDE": "llama3.1", "MODEL_B": "openai:x"})))`);
    expect(problems).toEqual(["MODEL_OVERRIDE='llama3.1': expected provider:model (e.g. openai:gpt-4.1-mini)"]);
  });

  it("the README's agent variable names are the ones the runner reads", () => {
    const keys = ["lead-writer", "a.b c", "réd9", "x_y", "ÉCOLE-2", "__proto__"];
    expect(py(`print(json.dumps([m.agent_env(k) for k in ${JSON.stringify(keys)}]))`)).toEqual(keys.map(agentModelEnv));
    expect(agentModelEnv("lead-writer")).toBe("MODEL_LEAD_WRITER");
  });
});

// content-studio pins Anthropic only; the panel pins five providers.
describe.each(["crewai", "langgraph"])("%s export documents any model endpoint", (target) => {
  const studio = exportFor("test/fixtures/valid/content-studio.envelope.json", target);
  const panel = exportFor("test/fixtures/valid/investment-due-diligence-panel.envelope.json", target);

  it("README and .env.example: the overrides, every agent's variable, each used provider's base URL", () => {
    const readme = studio.text("README.md");
    const env = studio.text(".env.example");
    expect(readme).toContain("## Any model endpoint");
    expect(readme).toMatch(/MODEL_OVERRIDE=openai:llama3\.1 OPENAI_BASE_URL=http:\/\/localhost:11434\/v1 OPENAI_API_KEY=unused \\\n {2}uv run content_studio --topic VALUE/);
    expect(readme).toContain("| `anthropic` | `ANTHROPIC_BASE_URL` |");
    expect(readme).toContain("`ENVELOPE_MODEL_FACTORY=module:function`");
    expect(readme).toContain("src/content_studio/my_models.py");
    for (const key of studio.model.agents.map((a) => a.key)) {
      expect(readme).toContain(`\`${agentModelEnv(key)}\` (\`${key}\`)`);
      expect(env).toContain(`\n# ${agentModelEnv(key)}=\n`);
    }
    expect(env).toContain("\n# MODEL_OVERRIDE=openai:llama3.1\n");
    expect(env).toContain("\n# ANTHROPIC_BASE_URL=\n# OPENAI_BASE_URL=http://localhost:11434/v1\n");
    const panelEnv = panel.text(".env.example");
    const mistral = target === "crewai" ? "MISTRAL_API_BASE" : "MISTRAL_BASE_URL";
    for (const name of ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "GOOGLE_GEMINI_BASE_URL", mistral]) expect(panelEnv).toContain(`\n# ${name}=`);
  });

  it("agent keys that share a variable are listed under it once", () => {
    const names = exportFor("test/fixtures/hostile/installed/names.envelope.json", target);
    expect(names.text(".env.example").match(/^# MODEL_A_B=$/gm)).toHaveLength(1);
    expect(names.text("README.md")).toContain("`MODEL_A_B` (`a-b` and `a_b`)");
  });

  it("the provider package a redirected agent needs is an optional extra", () => {
    const pyproject = studio.text("pyproject.toml");
    if (target === "crewai") {
      expect(pyproject).toContain('\ngoogle = ["crewai[google-genai]>=1.15.30,<2.0.0"]\n');
      expect(pyproject).toContain('\nmistral = ["crewai[litellm]>=1.15.30,<2.0.0"]\n');
      expect(pyproject).not.toMatch(/\nanthropic = /); // already the dependency's extra
    } else {
      expect(pyproject).toContain('\nopenai = ["langchain-openai>=1.6,<2"]\n');
      expect(pyproject).not.toMatch(/\nanthropic = /);
      expect(studio.text("README.md")).toContain("```sh\nuv sync --extra openai\nMODEL_OVERRIDE=openai:llama3.1");
    }
    expect(panel.text("pyproject.toml")).not.toMatch(/\n(anthropic|google|mistral) = /);
  });
});
