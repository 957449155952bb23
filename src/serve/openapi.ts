// The OpenAPI 3.1 description of `envelope serve`, served at /openapi.json. The HTTP tests
// check every answer the server gives against it (status, media type, body schema), and
// that the server's routes and the described paths are the same set.
import { VERSION } from "../version.js";
import { targetNames } from "../targets/index.js";
import { MAX_CONNECTION_FILES, MAX_EXPLICIT_CONNECTIONS, MAX_PATH_LENGTH, REQUEST_TYPE } from "./export-request.js";

const problem = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  ...extra,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

const definitionBody = {
  required: true,
  description: `An Envelope team definition (\`*.envelope.json\`), byte for byte, as UTF-8 JSON. At most 1 MiB. With connection packs (like \`--connections\` and \`--connection\`), send ${REQUEST_TYPE} instead: the definition's text and the pack files, at most 8 MiB in all.`,
  content: {
    "application/json": { schema: { type: "object" } },
    [REQUEST_TYPE]: { schema: { $ref: "#/components/schemas/DefinitionWithConnections" } },
    "application/*+json": { schema: { type: "object" } },
  },
};

const strictParam = {
  name: "strict",
  in: "query",
  required: false,
  description: "Warnings count as errors; for exports, a field that is not fully carried to the target fails the export, registry data excepted (like `--strict`).",
  schema: { type: "string", enum: ["true", "false", "1", "0"] },
};

const targetParam = {
  name: "target",
  in: "query",
  required: true,
  description: "The framework to generate for (see GET /v1/targets).",
  schema: { type: "string", enum: targetNames() },
};

const commonErrors = {
  "400": problem(`Malformed: the body is not a readable JSON object (with the diagnostics that say where), a ${REQUEST_TYPE} body is not of its shape (a file path that is not relative, a path given twice, over ${MAX_CONNECTION_FILES} files, \`connection\` without \`connections\`), a query parameter is wrong, or the request is not valid HTTP (no Host, or two).`),
  "403": problem("The Host header names no host this server answers to (it is bound to this machine)."),
  "413": problem(`The body is over 1 MiB (${REQUEST_TYPE}: over 8 MiB, or its definition over 1 MiB).`),
  "415": problem(`The body is not sent as application/json (or application/*+json, or ${REQUEST_TYPE}) in UTF-8.`),
  "417": problem("An Expect header other than 100-continue."),
  "503": problem("The server is at its concurrency bound (retry after the Retry-After seconds), the request hit the per-request time limit, or the server is shutting down (the connection then closes).", {
    headers: { "Retry-After": { schema: { type: "string" }, description: "Seconds to wait before retrying (overload and shutdown only)." } },
  }),
};

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "envelope-export",
      version: VERSION,
      description:
        "Validate Envelope team definitions and export them as CrewAI or LangGraph Python projects (a zip, a JSON preview, or a new GitHub repository). Stateless: every request carries the definition; nothing is stored. Errors are application/problem+json (RFC 9457).",
      license: { name: "MIT", identifier: "MIT" },
    },
    paths: {
      "/healthz": {
        get: {
          operationId: "health",
          summary: "Liveness: 200 while the server accepts requests (503 once it is shutting down).",
          responses: {
            "200": { description: "Serving.", content: { "application/json": { schema: { $ref: "#/components/schemas/Health" } } } },
            "503": problem("Shutting down."),
          },
        },
      },
      "/openapi.json": {
        get: {
          operationId: "openapi",
          summary: "This description.",
          responses: { "200": { description: "The OpenAPI document.", content: { "application/json": { schema: { type: "object", required: ["openapi", "paths"] } } } } },
        },
      },
      "/v1/targets": {
        get: {
          operationId: "listTargets",
          summary: "The export targets this server knows.",
          responses: { "200": { description: "The targets.", content: { "application/json": { schema: { $ref: "#/components/schemas/Targets" } } } } },
        },
      },
      "/v1/validate": {
        post: {
          operationId: "validate",
          summary: "Validate a definition: the CLI's diagnostics (codes, JSON pointers, line and column).",
          parameters: [strictParam],
          requestBody: definitionBody,
          responses: {
            "200": { description: "The definition was read; `valid` says whether it passed.", content: { "application/json": { schema: { $ref: "#/components/schemas/ValidationReport" } } } },
            ...commonErrors,
          },
        },
      },
      "/v1/exports": {
        post: {
          operationId: "createExport",
          summary: "Export a definition. `Accept: application/zip` (the default) answers the project as a zip archive, byte for byte what `envelope export --zip` writes, streamed as it is written (chunked) unless it comes from the answer cache (then with Content-Length); a failure after the first byte closes the connection without the final chunk, so a cut archive is never a complete answer; `Accept: application/json` answers every file with its content, the loss report and the team diagram, for a preview.",
          parameters: [targetParam, strictParam],
          requestBody: definitionBody,
          responses: {
            "200": {
              description: "The exported project.",
              headers: {
                "Content-Disposition": { schema: { type: "string" }, description: "attachment, with a file name made of the team's distribution name and the target (zip only)." },
                "Envelope-Loss": { schema: { type: "string" }, description: "The loss report's counts: `carried=N, approximated=N, dropped=N` (the full report is ENVELOPE_EXPORT.md in the archive, and in the JSON answer)." },
                "Envelope-Warnings": { schema: { type: "string" }, description: "The number of warnings (all of them, also those the answer does not list)." },
              },
              content: {
                "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } },
                "application/json": { schema: { $ref: "#/components/schemas/ExportPreview" } },
              },
            },
            "406": problem("The Accept header allows neither application/zip nor application/json."),
            "422": problem("The definition is invalid (`diagnostics`), a connection pack is (`invalid-connections`: `diagnostics`, each with the pack's `file`), with strict=true a field is not fully carried (`loss`), or the answer would be larger than 3 × the request + 2 MiB, a bound every answer keeps (`export-too-large`: a zip, which cannot be cut; the JSON preview leaves file contents out instead)."),
            ...commonErrors,
          },
        },
      },
      "/v1/exports/github": {
        post: {
          operationId: "publishExport",
          summary:
            "Export a definition and create a new GitHub repository holding the project in one commit; with update=true, propose the export to a repository an earlier export made, as a pull request (a new branch; the default branch is never written). The caller's token comes in the Authorization header (or the page's sign-in), is used for this request only, and is never stored or logged.",
          security: [{ githubToken: [] }],
          parameters: [
            targetParam,
            { name: "repository", in: "query", required: true, description: "OWNER/NAME of the repository to create.", schema: { type: "string", pattern: "^[^/]+/[^/]+$" } },
            { name: "private", in: "query", required: false, schema: { type: "string", enum: ["true", "false", "1", "0"] } },
            { name: "description", in: "query", required: false, schema: { type: "string", maxLength: 350 } },
            { name: "update", in: "query", required: false, description: "The repository exists and holds an earlier export (.envelope/export.json): open the update as a pull request.", schema: { type: "string", enum: ["true", "false", "1", "0"] } },
            strictParam,
          ],
          requestBody: definitionBody,
          responses: {
            "201": {
              description: "Created: the repository (Location is its web page), or with update=true the pull request (Location is the pull request's page).",
              headers: { Location: { schema: { type: "string" } } },
              content: { "application/json": { schema: { oneOf: [{ $ref: "#/components/schemas/PublishResult" }, { $ref: "#/components/schemas/UpdateResult" }] } } },
            },
            "200": {
              description: "update=true and nothing new to propose: the repository is up to date, or the same update's pull request is open (`pullRequest`).",
              content: { "application/json": { schema: { $ref: "#/components/schemas/UpdateResult" } } },
            },
            "401": problem("No token in the Authorization header, or GitHub rejected it (`kind: bad-credentials`).", { headers: { "WWW-Authenticate": { schema: { type: "string" } } } }),
            "409": problem("The repository name is taken (`kind: name-taken`, with free `suggestions`; when an earlier export made it, `earlierExport` says so: send update=true), or with update=true the repository holds no earlier export (`kind: not-an-export`)."),
            "422": problem("The definition or a connection pack is invalid, or not fully carried (strict), or GitHub refused the request or a file (`kind`)."),
            "404": problem("The owner does not exist (`kind: owner-not-found`)."),
            "429": problem("GitHub's rate limit, even after waiting (`kind: rate-limited`)."),
            "502": problem("GitHub failed or could not be reached (`kind: github-unavailable`), or creating may have succeeded (`kind: create-uncertain`: check before trying again)."),
            ...commonErrors,
            "403": problem(
              "The token lacks a scope or permission, or may not create there (`kind: missing-permission`; from a sign-in, `signIn: true` and the `scopes` to sign in again with); a signed-in request from another site (`cross-site`); or the Host header is not allowed.",
            ),
          },
        },
      },
      "/v1/session": {
        get: {
          operationId: "getSession",
          summary: "Whether this server offers Sign in with GitHub (an OAuth app is configured), and who is signed in. The token itself never leaves the server's sealed, HttpOnly cookie.",
          responses: { "200": { description: "The sign-in state.", content: { "application/json": { schema: { $ref: "#/components/schemas/Session" } } } }, "403": commonErrors["403"] },
        },
      },
      "/auth/github/login": {
        get: {
          operationId: "signIn",
          summary: "A browser navigation: redirects to GitHub's consent page with a fresh state and PKCE challenge, asking for public_repo (repo with private=true) and workflow only with workflow=true.",
          parameters: [
            { name: "private", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] } },
            { name: "workflow", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] } },
          ],
          responses: { "302": { description: "To GitHub's authorize page.", headers: { Location: { schema: { type: "string" } } } }, "404": problem("No GitHub OAuth app is configured."), "403": commonErrors["403"] },
        },
      },
      "/auth/github/callback": {
        get: {
          operationId: "signInCallback",
          summary: "Where GitHub sends the browser back. Redirects to the page with `?github=signed-in`, `denied`, `expired` (no sign-in in progress or another one's state) or `failed`.",
          responses: { "303": { description: "To the page.", headers: { Location: { schema: { type: "string" } } } }, "404": problem("No GitHub OAuth app is configured."), "403": commonErrors["403"] },
        },
      },
      "/auth/github/logout": {
        post: {
          operationId: "signOut",
          summary: "Ends the sign-in: clears the cookie and revokes the token at GitHub.",
          responses: { "204": { description: "Signed out." }, "403": problem("Not from this server's own page (`cross-site`), or the Host header is not allowed."), "404": problem("No GitHub OAuth app is configured.") },
        },
      },
    },
    components: {
      securitySchemes: { githubToken: { type: "http", scheme: "bearer", description: "A GitHub token (classic: public_repo or repo, plus workflow; fine-grained: Administration, Contents, Workflows read and write)." } },
      schemas: {
        Health: { type: "object", required: ["status", "version"], properties: { status: { const: "ok" }, version: { type: "string" } }, additionalProperties: false },
        Targets: {
          type: "object",
          required: ["targets"],
          additionalProperties: false,
          properties: {
            targets: {
              type: "array",
              items: { type: "object", required: ["name", "title"], additionalProperties: false, properties: { name: { type: "string" }, title: { type: "string" } } },
            },
          },
        },
        Diagnostic: {
          type: "object",
          required: ["code", "severity", "pointer", "line", "column", "message"],
          additionalProperties: false,
          properties: {
            code: { type: "string", pattern: "^[EW]_[A-Z0-9_]+$" },
            severity: { enum: ["error", "warning"] },
            pointer: { type: "string", description: "RFC 6901 JSON pointer into the definition (into `file` when it is given)." },
            file: { type: "string", description: "The uploaded connection file (its `path`) the diagnostic is about, or `connection` for an entry of that field; absent for the definition's own." },
            line: { type: "integer", minimum: 0, description: "1-based; 0 when the position is unknown." },
            column: { type: "integer", minimum: 0, description: "1-based, in UTF-16 code units." },
            message: { type: "string" },
            hint: { type: "string" },
            count: { type: "integer", minimum: 2, description: "Present when this diagnostic stands for several identical ones (same code, message and hint): how many, at its own place and elsewhere." },
            alsoAt: {
              type: "array",
              maxItems: 4,
              description: "The first other places where the same diagnostic occurs, in document order (`count` says how many occurrences in all).",
              items: { type: "object", required: ["pointer", "line", "column"], additionalProperties: false, properties: { pointer: { type: "string" }, line: { type: "integer", minimum: 0 }, column: { type: "integer", minimum: 0 } } },
            },
          },
        },
        Diagnostics: {
          type: "array",
          maxItems: 200,
          description: "Errors before warnings, at most 200 and about 64 KiB beyond the request's own size; `diagnosticsOmitted` counts the rest (`errors` and `warnings` count them all).",
          items: { $ref: "#/components/schemas/Diagnostic" },
        },
        DiagnosticsOmitted: { type: "integer", minimum: 1, description: "How many diagnostics the answer does not list; absent when it lists them all." },
        DefinitionWithConnections: {
          type: "object",
          required: ["definition"],
          additionalProperties: false,
          description:
            "A definition and the OpenWOP connection packs to export it with, as `envelope export --connections … --connection …` reads them: every file named pack.json is a pack (its folder, as in a --connections folder); any other file must be the OpenAPI document a pack's `reach.openapi.ref` names, relative to the pack (never a URL, an absolute path or a path out of the upload; nothing is fetched). Pack diagnostics name the file's `path`.",
          properties: {
            definition: { type: "string", description: "The team definition's text (`*.envelope.json`), at most 1 MiB as UTF-8; diagnostics give lines and columns in it." },
            connections: {
              type: "array",
              maxItems: MAX_CONNECTION_FILES,
              items: {
                type: "object",
                required: ["path", "content"],
                additionalProperties: false,
                properties: {
                  path: { type: "string", maxLength: MAX_PATH_LENGTH, description: "The file's path in the upload, relative with `/`: `helpdesk/pack.json`, `helpdesk/openapi.json`. Unique." },
                  content: { type: "string", description: "The file's text." },
                },
              },
            },
            connection: { type: "array", maxItems: MAX_EXPLICIT_CONNECTIONS, description: "AGENT_KEY=PROVIDER_ID: give an agent a pack whatever its policy says (like --connection); needs `connections`.", items: { type: "string", pattern: "^[^=\\s]+=[^=\\s]+$" } },
          },
        },
        ValidationReport: {
          type: "object",
          required: ["valid", "errors", "warnings", "diagnostics"],
          additionalProperties: false,
          properties: {
            valid: { type: "boolean" },
            errors: { type: "integer", minimum: 0 },
            warnings: { type: "integer", minimum: 0 },
            diagnostics: { $ref: "#/components/schemas/Diagnostics" },
            diagnosticsOmitted: { $ref: "#/components/schemas/DiagnosticsOmitted" },
          },
        },
        LossEntry: {
          type: "object",
          required: ["pointer", "field", "status", "detail"],
          additionalProperties: false,
          properties: {
            pointer: { type: "string" },
            field: { type: "string" },
            status: { enum: ["carried", "approximated", "dropped"] },
            detail: { type: "string" },
            registryOnly: { const: true, description: "Registry data (visibility, pricing, tags…): reported, never fatal under strict=true." },
          },
        },
        LossCounts: {
          type: "object",
          required: ["carried", "approximated", "dropped"],
          additionalProperties: false,
          properties: { carried: { type: "integer", minimum: 0 }, approximated: { type: "integer", minimum: 0 }, dropped: { type: "integer", minimum: 0 } },
        },
        LossReport: {
          type: "object",
          required: ["counts", "entries"],
          additionalProperties: false,
          properties: {
            counts: { $ref: "#/components/schemas/LossCounts" },
            entries: { type: "array", items: { $ref: "#/components/schemas/LossEntry" }, description: "Within about 64 KiB beyond the request's own size: what strict=true refuses first, then the rest not fully carried, then the carried; `counts` count them all." },
            entriesOmitted: { type: "integer", minimum: 1, description: "How many entries are not listed (absent when none is left out)." },
          },
        },
        ExportFile: {
          type: "object",
          required: ["path", "size", "mode", "executable", "encoding", "content"],
          additionalProperties: false,
          properties: {
            path: { type: "string" },
            size: { type: "integer", minimum: 0 },
            mode: { enum: ["0644", "0755"] },
            executable: { type: "boolean" },
            encoding: {
              enum: ["utf-8", "base64", "omitted"],
              description: "utf-8: `content` is the text; base64: the file is not UTF-8 and `content` holds its bytes; omitted: `content` is empty, left out (largest files first) so the preview stays within 3 × the request + 2 MiB; the zip holds it.",
            },
            content: { type: "string" },
          },
        },
        Diagram: {
          type: "object",
          required: ["width", "height", "nodes", "edges", "labels", "summary", "tooLarge"],
          additionalProperties: false,
          properties: {
            width: { type: "number" },
            height: { type: "number" },
            summary: { type: "string" },
            tooLarge: { type: "boolean" },
            labels: { type: "array", items: { type: "object", required: ["x", "y", "text"], additionalProperties: false, properties: { x: { type: "number" }, y: { type: "number" }, text: { type: "string" } } } },
            nodes: {
              type: "array",
              items: {
                type: "object",
                required: ["id", "kind", "x", "y", "width", "height", "title", "tooltip"],
                additionalProperties: false,
                properties: {
                  id: { type: "string" },
                  kind: { enum: ["agent", "step", "gate"] },
                  x: { type: "number" },
                  y: { type: "number" },
                  width: { type: "number" },
                  height: { type: "number" },
                  title: { type: "string" },
                  subtitle: { type: "string" },
                  tooltip: { type: "string" },
                },
              },
            },
            edges: {
              type: "array",
              items: {
                type: "object",
                required: ["kind", "from", "to", "points"],
                additionalProperties: false,
                properties: {
                  kind: { enum: ["manages", "then", "gate"] },
                  from: { type: "string" },
                  to: { type: "string" },
                  points: { type: "array", items: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 } },
                },
              },
            },
          },
        },
        ExportPreview: {
          type: "object",
          required: ["target", "title", "name", "zipName", "team", "errors", "warnings", "diagnostics", "files", "totalBytes", "loss", "diagram"],
          additionalProperties: false,
          properties: {
            target: { type: "string" },
            title: { type: "string" },
            name: { type: "string", description: "The project's distribution name (the zip's root folder)." },
            zipName: { type: "string" },
            team: {
              type: "object",
              required: ["name", "slug", "version", "description", "mode", "agents"],
              additionalProperties: false,
              properties: { name: { type: "string" }, slug: { type: "string" }, version: { type: "string" }, description: { type: "string" }, mode: { enum: ["hierarchy", "pipeline"] }, agents: { type: "integer" } },
            },
            errors: { type: "integer", minimum: 0 },
            warnings: { type: "integer", minimum: 0 },
            diagnostics: { $ref: "#/components/schemas/Diagnostics" },
            diagnosticsOmitted: { $ref: "#/components/schemas/DiagnosticsOmitted" },
            files: { type: "array", items: { $ref: "#/components/schemas/ExportFile" } },
            contentOmitted: { type: "integer", minimum: 1, description: "How many files' contents the preview left out (`encoding: omitted`); absent when none." },
            totalBytes: { type: "integer", minimum: 0 },
            loss: { $ref: "#/components/schemas/LossReport" },
            diagram: { $ref: "#/components/schemas/Diagram" },
          },
        },
        PublishResult: {
          type: "object",
          required: ["url", "cloneUrl", "fullName", "owner", "name", "private", "defaultBranch", "commit", "tree", "files", "bytes", "target", "loss"],
          properties: {
            url: { type: "string" },
            cloneUrl: { type: "string" },
            fullName: { type: "string" },
            owner: { type: "string" },
            name: { type: "string" },
            private: { type: "boolean" },
            defaultBranch: { type: "string" },
            commit: { type: "string" },
            tree: { type: "string" },
            files: { type: "integer" },
            bytes: { type: "integer" },
            target: { type: "string" },
            loss: { $ref: "#/components/schemas/LossCounts" },
          },
        },
        UpdateResult: {
          type: "object",
          required: ["status", "fullName", "url", "defaultBranch", "counts", "target", "loss"],
          additionalProperties: false,
          properties: {
            status: { enum: ["opened", "already-proposed", "up-to-date"] },
            fullName: { type: "string" },
            url: { type: "string" },
            defaultBranch: { type: "string" },
            pullRequest: { type: "object", required: ["url", "number", "title"], properties: { url: { type: "string" }, number: { type: "integer" }, title: { type: "string" } } },
            branch: { type: "string" },
            counts: { type: "object", description: "Files per action of the plan (create, update, merge, conflict, remove, keep).", additionalProperties: { type: "integer", minimum: 1 } },
            target: { type: "string" },
            loss: { $ref: "#/components/schemas/LossCounts" },
          },
        },
        Session: {
          type: "object",
          required: ["oauth", "signedIn"],
          additionalProperties: false,
          properties: {
            oauth: { type: "boolean", description: "Sign in with GitHub is offered; otherwise the page asks for a token." },
            signedIn: { type: "boolean" },
            login: { type: "string" },
            scopes: { type: "array", items: { type: "string" }, description: "What GitHub granted." },
          },
        },
        Problem: {
          type: "object",
          description: "RFC 9457 problem details, with the definition's diagnostics and loss report where they explain the problem.",
          required: ["type", "title", "status", "detail"],
          properties: {
            type: { type: "string", pattern: "^urn:envelope-export:problem:[a-z-]+$" },
            title: { type: "string" },
            status: { type: "integer", minimum: 400, maximum: 599 },
            detail: { type: "string" },
            requestId: { type: "string" },
            diagnostics: { $ref: "#/components/schemas/Diagnostics" },
            diagnosticsOmitted: { $ref: "#/components/schemas/DiagnosticsOmitted" },
            loss: { $ref: "#/components/schemas/LossReport" },
            targets: { type: "array", items: { type: "string" } },
            kind: { type: "string", description: "For GitHub failures: the publisher's error kind." },
            hint: { type: "string" },
            signIn: { const: true, description: "Signing in with GitHub (again) is the remedy." },
            scopes: { type: "array", items: { type: "string" }, description: "The scopes a new sign-in must ask for." },
            suggestions: { type: "array", items: { type: "string" } },
            repository: { type: "object", required: ["fullName", "url"], properties: { fullName: { type: "string" }, url: { type: "string" } } },
            earlierExport: {
              type: "object",
              description: "With `kind: name-taken`, when an earlier export made the repository (same target): its team, and what update=true would do (nothing was written).",
              required: ["url", "target", "upToDate", "counts"],
              properties: {
                name: { type: "string", description: "The team's name in that export." },
                url: { type: "string", description: "The repository's page." },
                version: { type: "string" },
                target: { type: "string" },
                upToDate: { type: "boolean", description: "It already holds this export: nothing to propose." },
                counts: { type: "object", description: "Files per action an update would take (create, update, merge, conflict, remove, keep).", additionalProperties: { type: "integer", minimum: 1 } },
              },
            },
          },
        },
      },
    },
  };
}
