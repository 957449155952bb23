#!/usr/bin/env node
// Extracts the GitHub REST operations that `envelope publish` uses from GitHub's published
// OpenAPI description (@octokit/openapi), into the small fixture the fake GitHub server in
// test/github/ validates every request against. The package is 385 MB unpacked, so it is not
// a dependency: this script downloads its tarball with `npm pack` into a temporary
// directory, reads the one file it needs, and deletes the rest.
//
//   node scripts/extract-github-openapi.mjs            # rewrite the fixture
//   node scripts/extract-github-openapi.mjs --check    # fail if the fixture is out of date
//
// When publish starts calling another endpoint, add it to OPERATIONS and run the script.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = "@octokit/openapi";
const VERSION = "23.0.2";
const DESCRIPTION = "api.github.com.deref"; // dereferenced: no $ref left, so each schema stands alone
const OUT = fileURLToPath(new URL("../test/github/fixtures/github-openapi.json", import.meta.url));

/** [method, path] of every operation the publisher (or the fake's checks) may call. */
const OPERATIONS = [
  ["get", "/user"],
  ["get", "/users/{username}"],
  ["post", "/user/repos"],
  ["post", "/orgs/{org}/repos"],
  ["get", "/repos/{owner}/{repo}"],
  ["get", "/repos/{owner}/{repo}/git/ref/{ref}"],
  ["post", "/repos/{owner}/{repo}/git/blobs"],
  ["post", "/repos/{owner}/{repo}/git/trees"],
  ["post", "/repos/{owner}/{repo}/git/commits"],
  ["get", "/repos/{owner}/{repo}/git/commits/{commit_sha}"],
  ["patch", "/repos/{owner}/{repo}/git/refs/{ref}"],
  // An update of an exported repository: read the default branch, write a branch, open a pull request.
  ["get", "/repos/{owner}/{repo}/git/trees/{tree_sha}"],
  ["get", "/repos/{owner}/{repo}/git/blobs/{file_sha}"],
  ["post", "/repos/{owner}/{repo}/git/refs"],
  ["post", "/repos/{owner}/{repo}/pulls"],
  ["get", "/repos/{owner}/{repo}/pulls"],
  // `envelope serve`'s sign-out revokes the OAuth token it was given.
  ["delete", "/applications/{client_id}/token"],
];

/** Examples are large and no validator reads them; everything else is kept as published. */
function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "example" || k === "examples") continue;
    out[k] = strip(v);
  }
  return out;
}

function jsonSchemaOf(content) {
  const media = content?.["application/json"];
  return media?.schema ? strip(media.schema) : null;
}

function extract(spec) {
  const operations = OPERATIONS.map(([method, path]) => {
    const op = spec.paths[path]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in ${PACKAGE}@${VERSION}`);
    const responses = {};
    for (const [status, response] of Object.entries(op.responses ?? {})) responses[status] = jsonSchemaOf(response.content);
    return {
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      "x-github": op["x-github"],
      parameters: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required ?? false, schema: strip(p.schema ?? {}) })),
      requestBody: op.requestBody ? { required: op.requestBody.required ?? false, schema: jsonSchemaOf(op.requestBody.content) } : null,
      responses,
    };
  });
  return {
    source: { package: PACKAGE, version: VERSION, file: `generated/${DESCRIPTION}.json`, openapi: spec.openapi, license: "MIT", extractedBy: "scripts/extract-github-openapi.mjs" },
    operations,
  };
}

const work = mkdtempSync(join(tmpdir(), "github-openapi-"));
try {
  execFileSync("npm", ["pack", `${PACKAGE}@${VERSION}`, "--silent", "--pack-destination", work], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(work, `octokit-openapi-${VERSION}.tgz`);
  execFileSync("tar", ["-xzf", tarball, "-C", work, `package/generated/${DESCRIPTION}.json`]);
  const spec = JSON.parse(readFileSync(join(work, "package", "generated", `${DESCRIPTION}.json`), "utf8"));
  const text = JSON.stringify(extract(spec), null, 1) + "\n";
  if (process.argv.includes("--check")) {
    const current = readFileSync(OUT, "utf8");
    if (current !== text) {
      console.error(`${OUT} differs from ${PACKAGE}@${VERSION}; run node scripts/extract-github-openapi.mjs`);
      process.exit(1);
    }
    console.log("fixture up to date");
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${OUT} (${OPERATIONS.length} operations, ${(text.length / 1024).toFixed(0)} KiB)`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
