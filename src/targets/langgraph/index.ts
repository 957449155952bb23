// The LangGraph target: TeamModel → a LangGraph 1.x project (src/<package>/graph.py wiring a
// StateGraph over static node functions, langgraph.json for `langgraph dev`, a runner with a
// SQLite checkpointer), runnable and tested offline. Templates live in templates/langgraph/.
import { FileSet } from "../../export/file-set.js";
import { formatPython } from "../../export/format/python.js";
import { addVendoredRuntime } from "../python-common/runtime-library.js";
import { addUvLock } from "../python-common/uv-lock.js";
import { LOSS_REPORT_PATH, lossReportMarkdown } from "../../export/loss-markdown.js";
import { HELPERS, VALUE_HELPERS } from "../../export/render/helpers.js";
import { loadTemplateDir } from "../../export/render/template-dir.js";
import type { ExportTarget, TargetInput } from "../../export/target.js";
import { LANGGRAPH_FIELD_RULES } from "./field-rules.js";
import { deployView } from "./deploy.js";
import { buildView } from "./view.js";

/** The folders under templates/ this target renders from (the build compiles them). */
export const TEMPLATE_FOLDERS = ["python-common", "langgraph"] as const;

function generate({ model, definitionText, loss, connections, runtime }: TargetInput): FileSet {
  const built = buildView(model, loss, connections, runtime);
  // The Agent Server deployment (langgraph.json, compose.yaml, the README's "Deploy").
  const view = { ...built, deploy: deployView(built.package, built.runtime) };
  const { env, statics } = loadTemplateDir(TEMPLATE_FOLDERS, HELPERS, VALUE_HELPERS);
  const files = new FileSet();
  const pkg = `src/${view.package}`;
  const text = (path: string, template: string) => files.add(path, env.render(template, view));
  const python = (path: string, template: string) => files.add(path, formatPython(env.render(template, view), path));

  // Project files every export has (.gitignore, knowledge/...); the generic Python is the
  // runtime library, vendored or pinned (python-common/runtime-library.ts).
  for (const s of statics) files.add(s.path, s.bytes, s.executable ? 0o755 : 0o644, true);
  addVendoredRuntime(files, view.runtime);
  text("pyproject.toml", "pyproject.toml.hbs");
  addUvLock(files, "langgraph", view.runtime);
  text("langgraph.json", "langgraph.json.hbs");
  text("compose.yaml", "compose.yaml.hbs");
  text("README.md", "README.md.hbs");
  text(".env.example", "env.example.hbs");
  files.add(LOSS_REPORT_PATH, lossReportMarkdown(loss, model.team.name, "LangGraph", view.connections.rows));
  if (model.team.readme !== undefined) text("TEAM.md", "TEAM.md.hbs");
  if (view.schedules.hasWorkflow) text(".github/workflows/scheduled-run.yml", "scheduled-run.yml.hbs");

  files.add(`${pkg}/envelope.json`, definitionText);
  for (const agent of model.agents) files.add(`${pkg}/prompts/${agent.key}.txt`, agent.prompt.raw);
  python(`${pkg}/__init__.py`, "src/__init__.py.hbs");
  python(`${pkg}/main.py`, "src/main.py.hbs");
  python(`${pkg}/team.py`, "src/team.py.hbs");
  python(`${pkg}/state.py`, "src/state.py.hbs");
  python(`${pkg}/models.py`, "src/models.py.hbs");
  python(`${pkg}/context.py`, "src/context.py.hbs");
  python(`${pkg}/graph.py`, "src/graph.py.hbs");
  // What langgraph.json hands the server: the resume guard (gates). A workspace's rows are in
  // the server's own store (langgraph.json names none).
  if (view.hasGates) python(`${pkg}/server.py`, "src/server.py.hbs");
  // Not test_team.py: a package named test_team (a team "test team") would be shadowed.
  // With MCP servers, the tests' fake one, set before graph.py builds the graph at import.
  if (view.connections.hasMcp) python("tests/conftest.py", "tests/conftest.py.hbs");
  python("tests/test_team_graph.py", "tests/test_team_graph.py.hbs");
  python("tests/test_team_run.py", "tests/test_team_run.py.hbs");
  return files;
}

export const langgraphTarget: ExportTarget = {
  name: "langgraph",
  title: "LangGraph",
  language: "python",
  fieldRules: LANGGRAPH_FIELD_RULES,
  // The team graph's nodes: an agent's own graph, drawn inside `team`, must not share a name
  // with them (draw_mermaid: "Found duplicate subgraph team"). Agents, steps and gates are
  // otherwise nodes and context fields, members of no class of ours.
  reservedMembers: new Set(["team", "prepare", "finalize"]),
  generate,
};
