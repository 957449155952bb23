// What an export target is. The core drives targets only through this interface; the list
// of targets lives in src/targets/index.ts and each target in its own folder with its
// templates under templates/<name>/.
import type { TeamConnections } from "../connections/connections.js";
import type { TeamModel } from "../model/types.js";
import type { FileSet } from "./file-set.js";
import type { FieldRule, LossEntry } from "./loss-report.js";

/**
 * Where an export's runtime library comes from (`--runtime`): its source copied into the
 * project (`vendored`, the default), or the exact pin only, installed from an index (`index`;
 * `indexUrl`: an organisation's own index, else the default one).
 */
export interface RuntimeChoice {
  mode: "vendored" | "index";
  indexUrl?: string;
}

export interface TargetInput {
  model: TeamModel;
  /** The definition file exactly as read, copied into the project for provenance. */
  definitionText: string;
  loss: LossEntry[];
  /** --connections: the packs, their OpenAPI operations and which agent gets which (none: no packs given). */
  connections?: TeamConnections;
  /** --runtime / --runtime-index (none: vendored). */
  runtime?: RuntimeChoice;
}

export interface ExportTarget {
  name: string;
  title: string;
  /** The language of the project it writes: what installs it (uv, npm) and checks it (ruff, tsc). */
  language: "python" | "typescript";
  /** What the target does with each definition field (the loss report's rules). */
  fieldRules: readonly FieldRule[];
  /**
   * Names an agent's, step's or gate's identifier must not be in this target's code: the
   * members of the class it becomes a method of (CrewAI's crew class: `package`, `embedder`,
   * ...), the nodes its graph sits beside. The namer gives such a key a `_`, in this target's
   * exports only; Python's keywords, builtins and module names are the namer's own, for all.
   */
  reservedMembers: ReadonlySet<string>;
  generate(input: TargetInput): FileSet;
}
