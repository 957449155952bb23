// `envelope` command line: argument parsing and exit codes. Commands live in their own files.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { VERSION } from "../version.js";
import { runExport, runInspect, runPublish, runServe, runValidate } from "./commands.js";
import type { GitHubFlags } from "./github-publish.js";

/** 3 and 4 are an update's (`export --out` into an earlier export): out of step under --check; written with conflicts. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, outOfStep: 3, conflicts: 4, interrupted: 130 } as const;

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** For --token-stdin; process.stdin when absent. */
  stdin?: NodeJS.ReadableStream;
}

export class UsageError extends Error {}

const HELP = `envelope ${VERSION} — turn Envelope team definitions into runnable Python projects

Usage:
  envelope validate FILE... [--format text|json|github] [--strict]
  envelope inspect FILE [--json] [--strict]
  envelope export FILE --target crewai|langgraph|langgraph-js
                  (--out DIR | --zip FILE | --dry-run | --github OWNER/NAME)
                  [--force] [--plan | --check] [--strict] [--json] [GitHub options]
                  [--connections PATH]... [--connection AGENT_KEY=PROVIDER_ID]...
                  [--runtime vendored|index] [--runtime-index URL]
  envelope publish DIR --github OWNER/NAME [GitHub options] [--json]
  envelope serve [--port 8787] [--host 127.0.0.1] [--workers N]
  envelope --help | --version

FILE is a path to an .envelope.json file, or - for standard input.

Commands:
  validate   Check definitions against the Envelope schema (v1.0 + v1.1/v1.2 fields) and the
             rules the schema cannot express. Exit 0 valid (warnings allowed), 1 invalid,
             2 usage or I/O error.
  inspect    Print the normalized team model (--json for the machine-readable contract).
  export     Generate a ready-to-run Python project. --out writes a directory atomically
             (a non-empty one only with --force, which replaces it whole); --out on an
             earlier export updates it in place and keeps your edits (files you changed
             are merged with the new export, conflicts marked and listed: exit 4);
             --zip writes a ZIP archive; --dry-run lists the files without writing. Prints the loss
             report: what was carried, approximated or not carried. --github also
             creates a new GitHub repository holding the project in one commit; on a
             repository an earlier export created, it opens a pull request with the
             update instead (the plan on stdout, the pull request's URL last).
  publish    Create a new GitHub repository from an already exported project directory.
             What its .gitignore files exclude, and every .env* but .env.example, is
             left out and listed.
  serve      Serve the HTTP API (/v1/validate, /v1/exports, /v1/exports/github, /openapi.json)
             and the handoff page at /: paste a definition, preview, copy, download the
             zip, create the repository. Prints the URL; Ctrl+C stops it gracefully.

Options:
  --strict          Treat warnings as errors; export also fails when a field is not
                    fully carried to the target (registry data such as visibility or
                    pricing is reported, never fatal).
  --target NAME     export: the framework to generate for: crewai, langgraph or
                    langgraph-js (a TypeScript project).
  --out DIR         export: the project directory.
  --zip FILE        export: a ZIP archive of the project; - writes it to standard
                    output. A symbolic link is refused; a FIFO or device is written through.
  --dry-run         export: list what would be written.
  --connections PATH
                    export: an OpenWOP connection pack (pack.json) or a folder of packs
                    (repeatable). An agent whose access policy reaches a pack's apiHosts
                    gets one tool per operation of its OpenAPI document (reach.openapi.ref,
                    read from the disk, never fetched), or its MCP server's tools
                    (reach.mcp, listed when the agent starts). A pack with credential
                    material is refused.
  --connection AGENT_KEY=PROVIDER_ID
                    export: give that agent that pack whatever its policy says (repeatable;
                    its requests are still checked against both at run time).
  --runtime vendored|index
                    export: where the project's runtime library (envelope-runtime, pinned
                    exactly) comes from: vendored (default) copies its source into
                    vendor/envelope-runtime/; index installs it from a package index.
  --runtime-index URL
                    export --runtime index: the index that serves envelope-runtime (an
                    organisation's own; default: the default index, PyPI).
  --plan            export --out on an earlier export: print what the update would do
                    (create, update, merge, conflict, remove, keep) and write nothing.
  --check           like --plan, but exit 3 when the update would change anything (for
                    CI: is the project in step with the definition?).
  --force           export: replace a non-empty --out directory or an existing --zip.
  --format FORMAT   validate output: text (default), json, or github (workflow annotations).
  --json            inspect: print the model as JSON; export, publish: a JSON summary.
  --port N          serve: the port (default 8787, or ENVELOPE_PORT; 0 picks a free one).
  --host HOST       serve: the address to listen on (default 127.0.0.1, or ENVELOPE_HOST).
  --workers N       serve: worker threads for exports (default: one per core, or
                    ENVELOPE_WORKERS). Other settings come from the environment:
                    ENVELOPE_TIMEOUT_MS, ENVELOPE_MAX_QUEUE, ENVELOPE_CACHE_MB,
                    ENVELOPE_MAX_PUBLISHES, ENVELOPE_PUBLISH_TIMEOUT_MS,
                    ENVELOPE_REQUEST_TIMEOUT_MS, ENVELOPE_ALLOWED_HOSTS,
                    ENVELOPE_LOG_LEVEL, GITHUB_API_URL; Sign in with GitHub on
                    the page: GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET (an OAuth app),
                    GITHUB_WEB_URL, ENVELOPE_PUBLIC_URL, ENVELOPE_SESSION_KEY.
  -h, --help        Show this help.
  -v, --version     Show the version.

GitHub options (export --github, publish):
  --github OWNER/NAME     The repository to create, in your account or an organization.
                          The token comes from --token-stdin, else GITHUB_TOKEN, else
                          \`gh auth token\` when the GitHub CLI is signed in; never from
                          an argument. Which one was used is printed, the token never.
                          export: when it exists and holds an earlier export
                          (.envelope/export.json on its default branch), the update goes
                          to a new branch envelope/update-HASH with a pull request into
                          the default branch (conflicts committed with markers: exit 4);
                          nothing is forced, the default branch is never written. With
                          --dry-run and a token at hand, the plan is shown, nothing written.
  --private               Create a private repository (default: public).
  --description TEXT      The repository's description.
  --github-api-url URL    GitHub Enterprise Server: https://HOST/api/v3 (or GITHUB_API_URL).
  --token-stdin           Read the token from standard input (before GITHUB_TOKEN or gh).
  --verbose               Also print one line per GitHub API request.
  Exit codes: 20 name taken (by a repository that holds no earlier export), 21 token
  rejected, 22 missing scope or permission, 23 owner not found, 24 rate limited,
  25 GitHub unavailable, 26 creation may have happened (not retried), 27 GitHub
  refused the request or a file.

Colour is used only on a terminal, and never when NO_COLOR is set.
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  strict: { type: "boolean" },
  json: { type: "boolean" },
  format: { type: "string" },
  target: { type: "string" },
  connections: { type: "string", multiple: true },
  connection: { type: "string", multiple: true },
  runtime: { type: "string" },
  "runtime-index": { type: "string" },
  out: { type: "string" },
  zip: { type: "string" },
  "dry-run": { type: "boolean" },
  force: { type: "boolean" },
  plan: { type: "boolean" },
  check: { type: "boolean" },
  github: { type: "string" },
  private: { type: "boolean" },
  description: { type: "string" },
  "github-api-url": { type: "string" },
  "token-stdin": { type: "boolean" },
  verbose: { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  workers: { type: "string" },
  // Accepted only to be refused with a reason: a token in argv shows in ps and shell history.
  token: { type: "string" },
} satisfies ParseArgsConfig["options"];

const GITHUB_ONLY = ["private", "description", "github-api-url", "token-stdin", "verbose"] as const;

/** The GitHub flags, or undefined without --github (then the others are refused). */
function githubFlags(values: { [K in keyof typeof OPTIONS]?: string | string[] | boolean | undefined }, command: string | undefined): GitHubFlags | undefined {
  if (values.github === undefined) {
    const stray = GITHUB_ONLY.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} only goes with --github OWNER/NAME`);
    return undefined;
  }
  if (command !== "export" && command !== "publish") throw new UsageError(`--github goes with export or publish, not ${command ?? "no command"}`);
  const flags: GitHubFlags = {
    repository: values.github as string,
    private: values.private === true,
    tokenStdin: values["token-stdin"] === true,
    verbose: values.verbose === true,
  };
  if (typeof values.description === "string") flags.description = values.description;
  if (typeof values["github-api-url"] === "string") flags.apiUrl = values["github-api-url"];
  return flags;
}

export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (values.version) {
      io.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    const [command, ...files] = positionals;
    if (values.token !== undefined) {
      throw new UsageError("a token is never taken on the command line (it would show in ps and the shell history): set GITHUB_TOKEN, pipe it in with --token-stdin, or sign the GitHub CLI in with `gh auth login`");
    }
    if (values.help || command === "help") {
      io.stdout.write(HELP);
      return EXIT.ok;
    }
    if (command === undefined) {
      // No command is a usage error: its help goes where errors go, so `envelope > x` shows it.
      io.stderr.write(HELP);
      return EXIT.usage;
    }
    const github = githubFlags(values, command);
    if (command !== "serve") {
      const stray = (["port", "host", "workers"] as const).find((flag) => values[flag] !== undefined);
      if (stray) throw new UsageError(`--${stray} goes with serve`);
    }
    switch (command) {
      case "validate": {
        const format = values.format ?? "text";
        if (format !== "text" && format !== "json" && format !== "github") throw new UsageError(`--format must be text, json or github, not "${format}"`);
        if (values.json) throw new UsageError("validate takes --format json, not --json");
        if (files.length === 0) throw new UsageError("validate needs at least one FILE (or - for stdin)");
        return await runValidate(files, { format, strict: values.strict ?? false }, io);
      }
      case "inspect": {
        if (values.format !== undefined) throw new UsageError("inspect takes --json, not --format");
        if (files.length !== 1) throw new UsageError("inspect takes exactly one FILE");
        return await runInspect(files[0]!, { json: values.json ?? false, strict: values.strict ?? false }, io);
      }
      case "publish": {
        if (files.length !== 1) throw new UsageError("publish takes exactly one DIR (an exported project)");
        if (!github) throw new UsageError("publish needs --github OWNER/NAME");
        for (const flag of ["target", "out", "zip", "dry-run", "force", "strict", "format", "plan", "check", "connections", "connection", "runtime", "runtime-index"] as const) {
          if (values[flag] !== undefined) throw new UsageError(`publish does not take --${flag}`);
        }
        return await runPublish(files[0]!, { github, json: values.json ?? false }, io);
      }
      case "export": {
        if (values.format !== undefined) throw new UsageError("export takes --json, not --format");
        if (files.length !== 1) throw new UsageError("export takes exactly one FILE");
        return await runExport(
          files[0]!,
          {
            target: values.target,
            out: values.out,
            zip: values.zip,
            dryRun: values["dry-run"] ?? false,
            force: values.force ?? false,
            plan: values.plan ?? false,
            check: values.check ?? false,
            strict: values.strict ?? false,
            json: values.json ?? false,
            github,
            connections: values.connections ?? [],
            connection: values.connection ?? [],
            runtime: values.runtime,
            runtimeIndex: values["runtime-index"],
          },
          io,
        );
      }
      case "serve": {
        if (files.length) throw new UsageError("serve takes no FILE: definitions come in HTTP requests");
        for (const flag of ["target", "out", "zip", "dry-run", "force", "strict", "format", "json", "plan", "check", "connections", "connection", "runtime", "runtime-index"] as const) {
          if (values[flag] !== undefined) throw new UsageError(`serve does not take --${flag}`);
        }
        return await runServe({ port: values.port, host: values.host, workers: values.workers }, io);
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`envelope: ${(e as Error).message}\nRun 'envelope --help' for usage.\n`);
      return EXIT.usage;
    }
    throw e;
  }
}
