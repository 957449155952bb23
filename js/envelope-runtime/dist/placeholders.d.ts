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
 * win over inputs. Non-string inputs are JSON.
 */
export declare function placeholderValues(envNames: readonly string[], env: Readonly<Record<string, string | undefined>>, inputs: Readonly<Record<string, unknown>>, declared?: readonly string[]): Record<string, string>;
