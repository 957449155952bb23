// The ZIP sink, loaded only for `export --zip`: it brings node:zlib, which `--out` and
// `--dry-run` do not need (a few milliseconds of a cold export, issue 18).
import type { writeZipFile as WriteZipFile } from "../export/sinks/zip-file.js";

export const writeZipFile: typeof WriteZipFile = async (...args) => (await import("../export/sinks/zip-file.js")).writeZipFile(...args);
