// What the export needs to run on the LangGraph Agent Server it ships for (langgraph.json's
// deployment keys, compose.yaml): the server image's version, the one python/langgraph.lock's
// langgraph-api has (the server this repository's tests serve the team with), and the packages
// the image installs from the export's uv.lock rather than by resolving pyproject.toml's ranges.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RUNTIME_DISTRIBUTION, type RuntimeView } from "../python-common/runtime-library.js";

export interface DeployView {
  /** langgraph.json `api_version`: the base image `langchain/langgraph-api:<it>-py3.11`. */
  apiVersion: string;
  /** The `uv export` that lists uv.lock's packages for the image (langgraph.json dockerfile_lines). */
  lockExport: string;
  /** The image `langgraph build -t` makes and compose.yaml runs: a Python identifier and a Docker name. */
  image: string;
}

const LOCK_DATA = fileURLToPath(new URL("../../../python/langgraph.uv-lock.json", import.meta.url));
let apiVersion: string | undefined;

function lockedApiVersion(): string {
  if (apiVersion === undefined) {
    const data = JSON.parse(readFileSync(LOCK_DATA, "utf8")) as { packages: Array<{ name: string; version: string }> };
    const found = data.packages.filter((p) => p.name === "langgraph-api").map((p) => p.version);
    if (found.length !== 1) throw new Error(`python/langgraph.uv-lock.json has ${found.length} langgraph-api versions, not one; rerun scripts/python-lock-data.mjs`);
    apiVersion = found[0]!;
  }
  return apiVersion;
}

export function deployView(pkg: string, runtime: RuntimeView): DeployView {
  // The dev group (tests, ruff, langgraph-cli[inmem] with its own langgraph-api) stays out of
  // the image; a vendored library is the CLI's own local package (installed from
  // vendor/envelope-runtime after this), not a requirement.
  // From another index (--runtime-index), the index goes into the list with it.
  const skip = runtime.vendored ? ` --no-emit-package ${RUNTIME_DISTRIBUTION}` : runtime.indexUrl ? " --emit-index-url" : "";
  return {
    apiVersion: lockedApiVersion(),
    // The package's name where it is a Docker repository name too (a Python identifier of
    // lowercase letters, digits and single or double underscores between them).
    image: /^[a-z0-9]+(?:__?[a-z0-9]+)*$/.test(pkg) ? pkg : "team",
    lockExport: `uv export --frozen --no-dev --no-hashes --no-emit-project${skip} -o requirements.txt`,
  };
}
