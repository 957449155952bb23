// Terminal colour, only when the stream is a TTY and NO_COLOR is unset (no-color.org).

export interface Style {
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  cyan(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const plain = (s: string) => s;

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const on = Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== "dumb";
  return on
    ? { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22), cyan: wrap(36, 39) }
    : { red: plain, yellow: plain, dim: plain, bold: plain, cyan: plain };
}

/**
 * Text from a definition, safe to print on a terminal: control characters (an ESC could
 * start an escape sequence) and bidi overrides are shown as `\u{…}`.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (ch) => `\\u{${ch.charCodeAt(0).toString(16)}}`);
}
