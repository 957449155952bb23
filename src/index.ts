// Library API of envelope-export.
export { validate, validateDocument, type ValidateOptions, type ValidationResult } from "./validate/validate.js";
export { normalize, modelFromDocument, type NormalizeResult } from "./model/index.js";
export type * from "./model/types.js";
export { MODEL_VERSION } from "./model/types.js";
export type { Diagnostic, Severity } from "./diagnostics/diagnostic.js";
export { CODES, type Code } from "./diagnostics/codes.js";
export { parseDefinitionBytes, readDefinitionFile, MAX_DEFINITION_BYTES, type SourceDocument } from "./read/source.js";
export { teamSchema, SCHEMA_URL } from "./schema/compose-schema.js";
export { VERSION } from "./version.js";
export { exportDefinition, type ExportOptions, type ExportResult } from "./export/export.js";
export { FileSet, type FileEntry } from "./export/file-set.js";
export { writeDirectory } from "./export/sinks/directory.js";
export { writeZip } from "./export/sinks/zip.js";
export type { ExportTarget, TargetInput } from "./export/target.js";
export type { LossEntry, LossStatus } from "./export/loss-report.js";
export { TARGETS, targetNames } from "./targets/index.js";
export { publishToGitHub, PublishError, readDirectoryFiles, parseRepositoryName, DEFAULT_API_URL, DEFAULT_LIMITS } from "./publish/index.js";
export type { PublishOptions, PublishResult, PublishErrorKind, PublishTiming, UploadLimits, LeftRepository, RepositoryName } from "./publish/index.js";
