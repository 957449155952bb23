// The CrewAI target: TeamModel → a classic CrewAI project (src/<package>/crew.py, config/,
// tools/, main.py), runnable and tested offline. Templates live in templates/crewai/.
import { FileSet } from "../../export/file-set.js";
import { formatPython } from "../../export/format/python.js";
import { LOSS_REPORT_PATH, lossReportMarkdown } from "../../export/loss-markdown.js";
import { HELPERS, VALUE_HELPERS } from "../../export/render/helpers.js";
import { loadTemplateDir } from "../../export/render/template-dir.js";
import type { ExportTarget, TargetInput } from "../../export/target.js";
import { CREWAI_FIELD_RULES } from "./field-rules.js";
import { buildView, type CrewaiView } from "./view.js";

// Paths as in templates/ (python-common's gates.py is written for src/PKG/).
const PIPELINE_ONLY = new Set([
  "src/PKG/envelope_support/flow_runner.py",
  "src/PKG/envelope_support/pipeline.py",
  "src/PKG/envelope_support/state.py",
  "src/PKG/envelope_support/steps.py",
  "src/PKG/gates.py",
]);
// The policy-enforcing HTTP tool: teams with an agent that has egress only.
const EGRESS_ONLY = new Set(["src/PKG/envelope_support/http_tools.py", "src/PKG/envelope_support/http_request.py", "src/PKG/policy.py"]);
// The connection packs' OpenAPI tools: teams exported with --connections whose agents got a pack only.
const CONNECTIONS_ONLY = new Set(["src/PKG/connections.py", "src/PKG/envelope_support/connection_tools.py"]);
const SCHEDULE_ONLY = new Set(["src/PKG/schedules.py", "src/PKG/envelope_support/schedule_commands.py"]);
const HIERARCHY_ONLY = new Set(["src/PKG/envelope_support/delegation.py", "src/PKG/envelope_support/crew_commands.py"]);

// The workspace store, its CrewAI tools and the triggering rows of a run: teams with `workspace` only.
const WORKSPACE_ONLY = new Set(["src/PKG/workspace.py", "src/PKG/run_context.py", "src/PKG/envelope_support/workspace_tools.py"]);

/** Static modules only some teams need; every other static module ships always. */
function wantsStatic(path: string, view: CrewaiView): boolean {
  // The webhook receiver and the condition poll: event and condition schedules only.
  if (SCHEDULE_ONLY.has(path)) return view.schedules.hasEvent || view.schedules.hasCondition;
  if (WORKSPACE_ONLY.has(path)) return view.workspace.has;
  if (CONNECTIONS_ONLY.has(path)) return view.connections.has;
  // An export's tests are about its team (tests/test_team.py); the support code's own tests
  // are envelope-export's (test/crewai-support/, python-common's in test/python-common-support/).
  if (path.startsWith("tests/")) return false;
  if (path === "src/PKG/envelope_support/json_text.py") return view.jsonTextTypes.length > 0;
  // The Flow's runner, its steps and gates, and its run state: pipeline teams only.
  if (PIPELINE_ONLY.has(path)) return view.mode === "pipeline";
  if (EGRESS_ONLY.has(path)) return view.anyEgress;
  // The manager, its workers and sub-teams, CrewAI's crew commands: hierarchy teams only.
  if (HIERARCHY_ONLY.has(path)) return view.mode === "hierarchy";
  return true;
}

/**
 * Where a static file goes in the project. The generic support code lives in one
 * sub-package, `<package>/envelope_support/`: the modules python-common shares with
 * LangGraph (written for `src/PKG/`) move there too; `tools/` (the developer's own tools)
 * stays at the top.
 */
function staticPath(path: string, pkg: string): string {
  if (/^src\/PKG\/[^/]+\.py$/.test(path)) return path.replace(/^src\/PKG\//, `${pkg}/envelope_support/`);
  return path.replace(/^src\/PKG\//, `${pkg}/`);
}

/** The folders under templates/ this target renders from (the build compiles them). */
export const TEMPLATE_FOLDERS = ["python-common", "crewai"] as const;

function generate({ model, definitionText, loss, connections }: TargetInput): FileSet {
  const view = buildView(model, loss, connections);
  const { env, statics } = loadTemplateDir(TEMPLATE_FOLDERS, HELPERS, VALUE_HELPERS);
  const files = new FileSet();
  const pkg = `src/${view.package}`;
  const text = (path: string, template: string) => files.add(path, env.render(template, view));
  const python = (path: string, template: string) => files.add(path, formatPython(env.render(template, view), path));

  for (const s of statics) {
    if (!wantsStatic(s.path, view)) continue;
    files.add(staticPath(s.path, pkg), s.bytes, s.executable ? 0o755 : 0o644, true);
  }
  text("pyproject.toml", "pyproject.toml.hbs");
  text("README.md", "README.md.hbs");
  text(".env.example", "env.example.hbs");
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(loss, model.team.name, "CrewAI", view.connections.rows));
  if (model.team.readme !== undefined) text("TEAM.md", "TEAM.md.hbs");
  if (view.schedules.hasWorkflow) text(".github/workflows/scheduled-run.yml", "scheduled-run.yml.hbs");

  files.add(`${pkg}/envelope.json`, definitionText);
  text(`${pkg}/config/agents.yaml`, "src/config/agents.yaml.hbs");
  text(`${pkg}/config/tasks.yaml`, "src/config/tasks.yaml.hbs");
  if (view.anyEgress) text(`${pkg}/config/access_policies.yaml`, "src/config/access_policies.yaml.hbs");
  python(`${pkg}/__init__.py`, "src/__init__.py.hbs");
  python(`${pkg}/envelope_support/__init__.py`, "src/envelope_support/__init__.py.hbs");
  python(`${pkg}/team.py`, "src/team.py.hbs");
  python(`${pkg}/models.py`, "src/models.py.hbs");
  python(`${pkg}/crew.py`, "src/crew.py.hbs");
  python(`${pkg}/main.py`, "src/main.py.hbs");
  if (view.mode === "pipeline") python(`${pkg}/flow.py`, "src/flow.py.hbs");
  // CrewAI's switches set before it is imported, and with MCP servers the tests' fake one.
  python("tests/conftest.py", "tests/conftest.py.hbs");
  python("tests/test_team.py", "tests/test_team.py.hbs");
  return files;
}

export const crewaiTarget: ExportTarget = {
  name: "crewai",
  title: "CrewAI",
  fieldRules: CREWAI_FIELD_RULES,
  generate,
};
