// Python formatting in-process with ruff's formatter compiled to WASM, configured like the
// `[tool.ruff]` section generated projects carry, so `ruff format --check` agrees with us.
import { format } from "@wasm-fmt/ruff_fmt";

export const PYTHON_LINE_WIDTH = 100;

export function formatPython(source: string, path: string): string {
  try {
    return format(source, path, { line_width: PYTHON_LINE_WIDTH, indent_style: "space", indent_width: 4, quote_style: "double", line_ending: "lf" });
  } catch (e) {
    // A template produced invalid Python: a bug in the target, reported with the source.
    throw new Error(`generated ${path} is not valid Python (${(e as Error).message ?? String(e)}):\n${source}`);
  }
}
