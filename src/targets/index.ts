// The export targets this build knows. The only file that names them.
import type { ExportTarget } from "../export/target.js";
import { crewaiTarget } from "./crewai/index.js";
import { langgraphTarget } from "./langgraph/index.js";
import { langgraphJsTarget } from "./langgraph-js/index.js";

export const TARGETS: Readonly<Record<string, ExportTarget>> = {
  crewai: crewaiTarget,
  langgraph: langgraphTarget,
  "langgraph-js": langgraphJsTarget,
};

export function targetNames(): string[] {
  return Object.keys(TARGETS);
}
