// The LangGraph target: TeamModel → a LangGraph 1.x project (src/<package>/graph.py wiring a
// StateGraph over static node functions, langgraph.json for `langgraph dev`, a runner with a
// SQLite checkpointer), runnable and tested offline. Templates live in templates/langgraph/.
import { FileSet } from "../../export/file-set.js";
import { formatPython } from "../../export/format/python.js";
import { LOSS_REPORT_PATH, lossReportMarkdown } from "../../export/loss-markdown.js";
import { HELPERS, VALUE_HELPERS } from "../../export/render/helpers.js";
import { loadTemplateDir } from "../../export/render/template-dir.js";
import type { ExportTarget, TargetInput } from "../../export/target.js";
import { LANGGRAPH_FIELD_RULES } from "./field-rules.js";
import { buildView, type LanggraphView } from "./view.js";

// Paths as in templates/ (python-common's gates.py is written for src/PKG/).
const PIPELINE_ONLY = new Set(["src/PKG/envelope_support/pipeline.py", "src/PKG/gates.py"]);
const HIERARCHY_ONLY = new Set(["src/PKG/envelope_support/hierarchy.py"]);
// The policy-enforcing HTTP tool: teams with an agent that has egress only.
const EGRESS_ONLY = new Set(["src/PKG/envelope_support/tools.py", "src/PKG/policy.py"]);
// The connection packs' OpenAPI tools: teams exported with --connections whose agents got a pack only.
const CONNECTIONS_ONLY = new Set(["src/PKG/connections.py", "src/PKG/envelope_support/connection_tools.py"]);
const SCHEDULE_ONLY = new Set(["src/PKG/schedules.py", "src/PKG/envelope_support/schedule_commands.py"]);
// The workspace store and the triggering rows of a run: teams with `workspace` only.
const WORKSPACE_ONLY = new Set(["src/PKG/workspace.py", "src/PKG/run_context.py", "src/PKG/envelope_support/workspace_store.py"]);

/**
 * Static modules only some teams need; every other static source module ships. No static
 * test does: an export's tests are about its team (tests/test_team_graph.py); the support
 * code's tests live in envelope-export (test/langgraph-support/, python-common's in
 * test/python-common-support/), run against exports of each kind of team.
 */
function wantsStatic(path: string, view: LanggraphView): boolean {
  // The webhook receiver and the condition poll: event and condition schedules only.
  if (SCHEDULE_ONLY.has(path)) return view.schedules.hasEvent || view.schedules.hasCondition;
  if (WORKSPACE_ONLY.has(path)) return view.workspace.has;
  if (CONNECTIONS_ONLY.has(path)) return view.connections.has;
  if (path.startsWith("tests/")) return false;
  // The step and gate nodes (and the gate rules they apply): pipeline teams only.
  if (PIPELINE_ONLY.has(path)) return view.mode === "pipeline";
  // The entry agent's `team` node: hierarchy teams only.
  if (HIERARCHY_ONLY.has(path)) return view.mode === "hierarchy";
  if (EGRESS_ONLY.has(path)) return view.anyEgress;
  // The runner's gate commands (resume --decisions, sweep) and the server's resume
  // redaction (langgraph.json's http.app): teams with review gates only.
  if (path === "src/PKG/envelope_support/review.py" || path === "src/PKG/envelope_support/server_app.py") return view.hasGates;
  return true;
}

/**
 * Where a static file goes in the project. The generic support code lives in one
 * sub-package, `<package>/envelope_support/`: the modules python-common shares with
 * CrewAI (written for `src/PKG/`) move there too.
 */
function staticPath(path: string, pkg: string): string {
  if (/^src\/PKG\/[^/]+\.py$/.test(path)) return path.replace(/^src\/PKG\//, `${pkg}/envelope_support/`);
  return path.replace(/^src\/PKG\//, `${pkg}/`);
}

/** The folders under templates/ this target renders from (the build compiles them). */
export const TEMPLATE_FOLDERS = ["python-common", "langgraph"] as const;

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
  text("langgraph.json", "langgraph.json.hbs");
  text("README.md", "README.md.hbs");
  text(".env.example", "env.example.hbs");
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(loss, model.team.name, "LangGraph", view.connections.rows));
  if (model.team.readme !== undefined) text("TEAM.md", "TEAM.md.hbs");
  if (view.schedules.hasWorkflow) text(".github/workflows/scheduled-run.yml", "scheduled-run.yml.hbs");

  files.add(`${pkg}/envelope.json`, definitionText);
  for (const agent of model.agents) files.add(`${pkg}/prompts/${agent.key}.txt`, agent.prompt.raw);
  python(`${pkg}/__init__.py`, "src/__init__.py.hbs");
  python(`${pkg}/envelope_support/__init__.py`, "src/envelope_support/__init__.py.hbs");
  python(`${pkg}/main.py`, "src/main.py.hbs");
  python(`${pkg}/team.py`, "src/team.py.hbs");
  python(`${pkg}/state.py`, "src/state.py.hbs");
  python(`${pkg}/models.py`, "src/models.py.hbs");
  python(`${pkg}/context.py`, "src/context.py.hbs");
  python(`${pkg}/graph.py`, "src/graph.py.hbs");
  // Not test_team.py: a package named test_team (a team "test team") would be shadowed.
  // With MCP servers, the tests' fake one, set before graph.py builds the graph at import.
  if (view.connections.hasMcp) python("tests/conftest.py", "tests/conftest.py.hbs");
  python("tests/test_team_graph.py", "tests/test_team_graph.py.hbs");
  return files;
}

export const langgraphTarget: ExportTarget = {
  name: "langgraph",
  title: "LangGraph",
  fieldRules: LANGGRAPH_FIELD_RULES,
  generate,
};
