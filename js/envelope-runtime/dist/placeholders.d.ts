export declare const PLACEHOLDER: RegExp;
/** Replace each `{{NAME}}` that has a value; leave all other text untouched. */
export declare function render(text: string, values: Readonly<Record<string, string>>): string;
/** Whether `text` still holds a `{{NAME}}`. */
export declare function hasPlaceholder(text: string): boolean;
/** An input's upper-case name in prompts: `{{TICKET_TEXT}}` for `ticket-text`. */
export declare function referenceName(inputKey: string): string;
/**
 * Values for `{{NAME}}`: the run's inputs (by key, and by upper-case name: an exact key
 * wins, then the first declared), then variables and secrets from the environment, which
 * win over inputs. Non-string inputs are JSON, written as Python's `json.dumps` writes
 * them (pythonJson), so a prompt reads the same in every target.
 */
export declare function placeholderValues(envNames: readonly string[], env: Readonly<Record<string, string | undefined>>, inputs: Readonly<Record<string, unknown>>, declared?: readonly string[]): Record<string, string>;
export interface PythonJsonOptions {
    /** Python's `indent`: each item on its own line, nested this many spaces deeper (`",\n"`, `": "`). */
    indent?: number;
    /** Python's `ensure_ascii` (default true): every character outside printable ASCII as `\uXXXX`; false escapes only `"`, `\` and controls. */
    ensureAscii?: boolean;
}
/**
 * `value` as Python's `json.dumps(value)` writes it: `", "` and `": "` between items,
 * every character outside ASCII's printable range as a lower-case `\uXXXX` escape
 * (ensure_ascii), floats as Python's `repr`; with `options`, as `json.dumps(value, indent=…,
 * ensure_ascii=…)`. Safe integers are written as integers; a JSON.parse'd value has already
 * lost what Python would keep (`1.0` as a float, integers beyond 2**53, the order of object
 * keys that are array indices): spec/placeholder-vectors.json.
 */
export declare function pythonJson(value: unknown, options?: PythonJsonOptions): string;
/**
 * Data in a task text (run inputs, records, answers), as the Python targets write it there:
 * `json.dumps(value, indent=2, ensure_ascii=False)`.
 */
export declare function taskJson(value: unknown): string;
