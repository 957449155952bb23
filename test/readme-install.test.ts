// The install commands an exported README gives. `uv sync` is exact: it installs the extras
// it is named and uninstalls every other package. pytest, ruff and langgraph-cli, which the
// README's later `uv run pytest` and `uv run langgraph dev` need, are the `dev` dependency
// group (PEP 735), which `uv sync` and `uv run` include unless told not to: no command may
// leave it out, and every extra a command names must exist. Checked on every shipped
// definition's export, for every target, against its pyproject.toml.
import { describe, expect, it } from "vitest";
import { targetNames } from "../src/targets/index.js";
import { exportFile, validDefinitions } from "./helpers/export.js";

/** The extras `[project.optional-dependencies]` declares (a `name = [` line each). */
function declaredExtras(pyproject: string): Set<string> {
  const section = /^\[project\.optional-dependencies\]\n([\s\S]*?)(?=^\[)/m.exec(pyproject)?.[1] ?? "";
  return new Set([...section.matchAll(/^([a-z0-9][a-z0-9_-]*) = \[/gm)].map((m) => m[1]!));
}

// The Python targets (uv); a TypeScript target installs with npm ci.
describe.each(targetNames("python"))("%s README: uv sync keeps the dev group", (target) => {
  it.each(validDefinitions())("$name", ({ path }) => {
    const files = exportFile(path, target);
    const readme = files.text("README.md")!;
    const pyproject = files.text("pyproject.toml")!;
    const extras = declaredExtras(pyproject);
    expect(extras.has("dev")).toBe(false);
    expect(pyproject).toMatch(/^\[dependency-groups\]\n(?:#.*\n)*dev = \[/m);
    // The commands: lines of shell blocks, and inline code that gives options (a bare
    // `uv sync` in a sentence names the command).
    const blockLines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.split("\n"));
    const inline = [...readme.matchAll(/`(uv sync --[^`]*)`/g)].map((m) => m[1]!);
    const commands = [...blockLines.filter((l) => l.startsWith("uv sync")), ...inline];
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const named = [...command.matchAll(/--extra ([A-Za-z0-9_-]+)/g)].map((m) => m[1]!);
      expect(command).not.toMatch(/--(no-dev|only-dev|no-default-groups|only-group|no-group|all-groups)\b/);
      for (const extra of named) if (extra !== "NAME") expect(extras.has(extra), `${command}: no extra ${extra} in pyproject.toml`).toBe(true);
    }
  });
});
