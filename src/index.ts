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
