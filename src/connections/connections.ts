// The connections of one export: the packs given with --connections (read-packs.ts), their
// OpenAPI operations (openapi.ts) and which agent gets which pack (assign.ts). Reading is I/O
// (the CLI's); assigning needs the team model (the export core's). What a target gets is
// `TeamConnections`, the same for every target.
import { posix } from "node:path";
import { isError, type Diagnostic } from "../diagnostics/diagnostic.js";
import { makeDiagnostic } from "../diagnostics/make.js";
import type { TeamModel } from "../model/types.js";
import { assignPacks, type ExplicitConnection, type PackAssignment } from "./assign.js";
import { readOpenApi, type PackApi } from "./openapi.js";
import { fileSource, memorySource, type PackSource, type UploadedFile } from "./pack-source.js";
import { readConnectionPacks, readPackFiles, type ConnectionPack, type ReadPacks } from "./read-packs.js";

export interface ReadConnections {
  packs: ConnectionPack[];
  /** By provider id: the packs with reach.openapi. */
  apis: PackApi[];
}

export interface TeamConnections extends ReadConnections {
  assignments: PackAssignment[];
}

/** Reads the packs and their OpenAPI documents; any error refuses the export (a warning is said, and the export goes on). */
export function readConnections(paths: readonly string[]): { read: ReadConnections; diagnostics: Diagnostic[] } {
  return withApis(readConnectionPacks(paths), fileSource);
}

/**
 * The same from uploaded files (the HTTP API's): every file named `pack.json` is a pack, as
 * in a `--connections` folder; any other file must be a document a pack's `reach.openapi.ref`
 * names, so a pack sent under another name is said, not silently left out.
 */
export function readUploadedConnections(files: readonly UploadedFile[]): { read: ReadConnections; diagnostics: Diagnostic[] } {
  const source = memorySource(files);
  // In path order, as a --connections folder's packs are: the export does not depend on the upload's order.
  const packFiles = files
    .map((f) => f.path)
    .filter((path) => posix.basename(path) === "pack.json")
    .sort();
  const result = withApis(readPackFiles(packFiles, source), source);
  // Only once every pack was read: a refused pack's document would be reported unused too.
  if (result.diagnostics.some(isError)) return result;
  const used = new Set(packFiles);
  for (const pack of result.read.packs) {
    const ref = pack.provider.reach.openapi?.ref;
    const named = ref === undefined ? undefined : source.resolve(pack.file, ref);
    if (typeof named === "string") used.add(named);
  }
  for (const f of files) {
    if (used.has(f.path)) continue;
    result.diagnostics.push(
      makeDiagnostic("E_PACK_UNUSED", "", { line: 0, column: 0 }, `${f.path} is no pack.json, and no pack's reach.openapi.ref names it`, { file: f.path, hint: "a pack is a file named pack.json (one per folder); its OpenAPI document goes next to it" }),
    );
  }
  return result;
}

function withApis({ packs, diagnostics }: ReadPacks, source: PackSource): { read: ReadConnections; diagnostics: Diagnostic[] } {
  const apis: PackApi[] = [];
  // Tool names are unique across packs (the provider id prefixes each, and a clash gets a suffix).
  const taken = new Set<string>(["http_request"]); // the HTTP tool every agent with egress has
  for (const pack of packs) {
    const r = readOpenApi(pack, taken, source);
    diagnostics.push(...r.diagnostics);
    if (r.api) apis.push(r.api);
  }
  return { read: { packs, apis }, diagnostics };
}

/** Which agent gets which pack; a pack named for an agent without an access policy is refused (its every request would be). */
export function connectTeam(model: TeamModel, read: ReadConnections, explicit: readonly ExplicitConnection[]): { connections: TeamConnections; diagnostics: Diagnostic[] } {
  const { assignments, diagnostics } = assignPacks(model, read.packs, explicit);
  const kept: PackAssignment[] = [];
  for (const a of assignments) {
    const agent = model.agents.find((x) => x.key === a.agent)!;
    if (agent.egress.source === "none") {
      diagnostics.push(
        makeDiagnostic("E_CONNECTION_NO_POLICY", "", { line: 0, column: 0 }, `--connection ${a.agent}=${a.provider}: agent "${a.agent}" has no accessPolicy or allowedHosts, so every request of the pack's tools would be refused`, {
          file: "--connection",
          hint: `give ${a.agent} an accessPolicy that allows the pack's apiHosts (${(read.packs.find((p) => p.provider.id === a.provider)!.provider.apiHosts ?? []).join(", ") || "none"})`,
        }),
      );
      continue;
    }
    kept.push(a);
  }
  return { connections: { ...read, assignments: kept }, diagnostics };
}
