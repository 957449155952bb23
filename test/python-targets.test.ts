// What both Python targets write alike, checked for each: the scheduled workflow of a team
// with gates, and where the loss report says the schedule went.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { team } from "./helpers/definitions.js";
import { exportFor } from "./helpers/export.js";

const STATE_DIRS: Record<string, string> = { crewai: ".envelope-runs", langgraph: ".langgraph_runs" };

const exportOf = exportFor;

const fixture = (name: string) => JSON.parse(readFileSync(`${ROOT}test/fixtures/valid/${name}.envelope.json`, "utf8"));
const STATE_DIR_LINES: Record<string, string> = { crewai: 'STATE_DIR = ".envelope-runs"', langgraph: 'STATE_DIR = Path(".langgraph_runs")' };

describe.each(Object.keys(STATE_DIRS))("%s", (target) => {
  it("a scheduled team with gates keeps a stopped run's state as a workflow artifact", () => {
    const gated = exportOf({ ...fixture("engineering-hiring-loop"), schedule: { type: "cron", cron: "0 7 * * MON" } }, target);
    const wf = gated.text(".github/workflows/scheduled-run.yml");
    expect(wf).toContain("      - if: always()\n        uses: actions/upload-artifact@v4\n");
    expect(wf).toContain(`          path: "${STATE_DIRS[target]}"\n          include-hidden-files: true\n`);
    expect(gated.text("README.md")).toContain("as the artifact `run-state`");
    const ungated = exportOf(fixture("weekly-pipeline-review"), target);
    expect(ungated.text(".github/workflows/scheduled-run.yml")).not.toContain("upload-artifact");
  });

  it("the workflow keeps the state directory the runner uses, and passes MODEL with every key for agents on MODEL", () => {
    const x = exportOf(team({ schedule: { type: "cron", cron: "0 7 * * MON" } }), target);
    // The runner's module: main.py only names the scripts; the runner is envelope-runtime's
    // (the target's subpackage, as the export vendors it).
    const runner = `vendor/envelope-runtime/src/envelope_runtime/${target}/runner.py`;
    expect(x.text(runner)).toContain(`\n${STATE_DIR_LINES[target]}`);
    expect(STATE_DIR_LINES[target]).toContain(`"${STATE_DIRS[target]}"`);
    const wf = x.text(".github/workflows/scheduled-run.yml");
    for (const name of ["MODEL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "MISTRAL_API_KEY"]) expect(wf).toContain(`          ${name}: \${{ secrets.${name} }}`);
  });

  it("the workflow passes the model overrides, every provider key and base URL, and installs every provider", () => {
    const x = exportOf({ ...fixture("weekly-pipeline-review") }, target);
    const wf = x.text(".github/workflows/scheduled-run.yml");
    const names = ["MODEL_OVERRIDE", "MODEL_REVOPS_ANALYST", "MODEL_DEAL_COACH", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"];
    for (const name of names) expect(wf).toContain(`          ${name}: \${{ secrets.${name} }}`);
    expect(wf).toContain("      - run: uv sync --locked --all-extras\n");
  });

  it("a scheduled team whose gates time out sweeps waiting runs kept in the Actions cache", () => {
    const timed = exportOf({ ...fixture("engineering-hiring-loop"), schedule: { type: "cron", cron: "0 7 * * MON" } }, target);
    const wf = timed.text(".github/workflows/scheduled-run.yml");
    const pkg = "engineering_hiring_loop";
    const restore = wf.indexOf("uses: actions/cache/restore@v4");
    // Sweep, then the run, in the one step that gets the secrets.
    const run = wf.indexOf(`      - run: uv run ${pkg} sweep && uv run ${pkg} \${team_inputs`);
    const save = wf.indexOf("uses: actions/cache/save@v4");
    expect(restore).toBeGreaterThan(0);
    expect([restore < run, run < save]).toEqual([true, true]);
    expect(wf.indexOf("secrets.")).toBeGreaterThan(run);
    expect(wf.lastIndexOf("secrets.")).toBeLessThan(save);
    expect(wf).toContain("          key: run-state-${{ github.run_id }}\n          restore-keys: run-state-\n");
    expect(timed.text("README.md")).toContain(`\`uv run ${pkg} sweep\` resumes every waiting run`);
    const untimed = exportOf({ ...fixture("weekly-pipeline-review") }, target);
    expect(untimed.text(".github/workflows/scheduled-run.yml")).not.toContain("sweep");
  });

  it("ruff's rules are an explicit select list, so a newer ruff's defaults add none", () => {
    const pyproject = exportOf(team(), target).text("pyproject.toml");
    const lint = /\n\[tool\.ruff\.lint\]\n([\s\S]*?)(?:\n\[|$)/.exec(pyproject)?.[1] ?? "";
    const keys = lint.split("\n").filter((l) => /^[a-z-]+\s*=/.test(l)).map((l) => l.split("=")[0]!.trim());
    expect(keys).toEqual(["select"]);
    expect(lint).toContain('select = ["E", "F", "I", "UP", "B"]');
  });

  it("schedule.type says where it went: the workflow only for cron", () => {
    const cron = exportOf(team({ schedule: { type: "cron", cron: "0 7 * * MON" } }), target);
    expect(cron.loss.find((e) => e.field === "schedule.type")).toMatchObject({ status: "carried", detail: "README, and .github/workflows/scheduled-run.yml" });
    const manual = exportOf(team({ schedule: { type: "manual" } }), target);
    expect(manual.loss.find((e) => e.field === "schedule.type")).toMatchObject({ status: "carried", detail: "README: the team runs when you start it" });
  });
});
