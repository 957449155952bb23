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

/** The targets' names, in registry order; with `language`, only the targets writing projects in it. */
export function targetNames(language?: ExportTarget["language"]): string[] {
  return Object.keys(TARGETS).filter((name) => language === undefined || TARGETS[name]!.language === language);
}
