// A strict JSON (RFC 8259) parser that also records where every value and key starts, so a
// diagnostic about `/agents/1/prompt` can say "line 40, column 7". JSON.parse gives neither
// positions nor duplicate-key detection, and a lenient parser would accept comments and
// trailing commas that the Envelope platform rejects.
import { childPointer } from "./json-pointer.js";

export interface Position {
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, counted in UTF-16 code units like editors do. */
  column: number;
}

export interface Located {
  /** Where the value starts. */
  value: Position;
  /** Where the property name starts, for values that are object members. */
  key?: Position;
}

export interface DuplicateKey {
  pointer: string;
  key: Position;
  firstKey: Position;
}

export interface ParsedJson {
  value: unknown;
  locations: Map<string, Located>;
  duplicateKeys: DuplicateKey[];
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: Position,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/** Deep enough for any real definition; shallow enough that a hostile file cannot blow the stack. */
export const MAX_NESTING = 256;

export function parseJsonWithPositions(text: string): ParsedJson {
  return new Parser(text).parseDocument();
}

class Parser {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly locations = new Map<string, Located>();
  private readonly duplicateKeys: DuplicateKey[] = [];

  constructor(private readonly text: string) {}

  parseDocument(): ParsedJson {
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail("the file contains no JSON value");
    const value = this.parseValue("", 0, undefined);
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      this.fail(`unexpected ${this.describeHere()} after the end of the JSON document`);
    }
    return { value, locations: this.locations, duplicateKeys: this.duplicateKeys };
  }

  private here(): Position {
    return { offset: this.pos, line: this.line, column: this.pos - this.lineStart + 1 };
  }

  private fail(message: string, at: Position = this.here()): never {
    throw new JsonSyntaxError(message, at);
  }

  private describeHere(): string {
    if (this.pos >= this.text.length) return "end of file";
    const ch = this.text[this.pos]!;
    if (ch === "/" && (this.text[this.pos + 1] === "/" || this.text[this.pos + 1] === "*")) {
      return "comment (comments are not allowed in JSON)";
    }
    const code = ch.charCodeAt(0);
    if (code < 0x20) return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    return `character '${ch}'`;
  }

  private skipWhitespace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const ch = t.charCodeAt(this.pos);
      if (ch === 0x0a) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (ch === 0x20 || ch === 0x09 || ch === 0x0d) {
        this.pos++;
      } else {
        break;
      }
    }
  }

  private parseValue(pointer: string, depth: number, key: Position | undefined): unknown {
    if (depth > MAX_NESTING) this.fail(`nesting deeper than ${MAX_NESTING} levels`);
    const start = this.here();
    this.locations.set(pointer, key ? { value: start, key } : { value: start });
    const ch = this.text[this.pos];
    switch (ch) {
      case "{":
        return this.parseObject(pointer, depth);
      case "[":
        return this.parseArray(pointer, depth);
      case '"':
        return this.parseString();
      case "t":
        return this.parseLiteral("true", true);
      case "f":
        return this.parseLiteral("false", false);
      case "n":
        return this.parseLiteral("null", null);
      default:
        if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.parseNumber();
        if (ch === "'") this.fail("strings must use double quotes (\"), not single quotes");
        return this.fail(`expected a JSON value but found ${this.describeHere()}`);
    }
  }

  private parseObject(pointer: string, depth: number): Record<string, unknown> {
    this.pos++; // {
    // A null-prototype object so a member named "__proto__" is data, not a prototype change.
    const result: Record<string, unknown> = Object.create(null);
    const seen = new Map<string, Position>();
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return result;
    }
    let comma: Position | undefined;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] === "}" && comma) this.fail("trailing comma before '}' is not allowed in JSON", comma);
      if (this.text[this.pos] !== '"') {
        this.fail(`expected a property name in double quotes but found ${this.describeHere()}`);
      }
      const keyPos = this.here();
      const name = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") {
        this.fail(`expected ':' after property name "${name}" but found ${this.describeHere()}`);
      }
      this.pos++;
      this.skipWhitespace();
      const childPtr = childPointer(pointer, name);
      const first = seen.get(name);
      if (first) this.duplicateKeys.push({ pointer: childPtr, key: keyPos, firstKey: first });
      else seen.set(name, keyPos);
      result[name] = this.parseValue(childPtr, depth + 1, keyPos);
      this.skipWhitespace();
      const ch = this.text[this.pos];
      if (ch === ",") {
        comma = this.here();
        this.pos++;
        continue;
      }
      if (ch === "}") {
        this.pos++;
        return result;
      }
      this.fail(`expected ',' or '}' after the value of "${name}" but found ${this.describeHere()}`);
    }
  }

  private parseArray(pointer: string, depth: number): unknown[] {
    this.pos++; // [
    const result: unknown[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return result;
    }
    let comma: Position | undefined;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] === "]" && comma) this.fail("trailing comma before ']' is not allowed in JSON", comma);
      result.push(this.parseValue(childPointer(pointer, result.length), depth + 1, undefined));
      this.skipWhitespace();
      const ch = this.text[this.pos];
      if (ch === ",") {
        comma = this.here();
        this.pos++;
        continue;
      }
      if (ch === "]") {
        this.pos++;
        return result;
      }
      this.fail(`expected ',' or ']' in array but found ${this.describeHere()}`);
    }
  }

  private parseString(): string {
    const start = this.here();
    this.pos++; // opening quote
    const t = this.text;
    let out = "";
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail("unterminated string (missing closing \")", start);
      const code = t.charCodeAt(this.pos);
      if (code === 0x22) {
        out += t.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (code === 0x5c) {
        out += t.slice(chunkStart, this.pos);
        out += this.parseEscape();
        chunkStart = this.pos;
        continue;
      }
      if (code < 0x20) {
        if (code === 0x0a) this.fail("unterminated string: a line break inside a string must be written \\n", start);
        this.fail(`control character U+${code.toString(16).toUpperCase().padStart(4, "0")} must be escaped inside a string`);
      }
      this.pos++;
    }
  }

  private parseEscape(): string {
    const at = this.here();
    const ch = this.text[this.pos + 1];
    this.pos += 2;
    switch (ch) {
      case '"':
        return '"';
      case "\\":
        return "\\";
      case "/":
        return "/";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "u": {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape: expected four hex digits", at);
        this.pos += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail(`invalid escape sequence '\\${ch ?? ""}' in string`, at);
    }
  }

  private parseNumber(): number {
    const start = this.here();
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!match) this.fail(`invalid number`, start);
    const next = this.text[this.pos + match[0].length];
    if (next !== undefined && /[0-9.eE+\-a-zA-Z]/.test(next)) this.fail("invalid number", start);
    const value = Number(match[0]);
    // JSON has no bound, but every reader of the definition holds numbers as doubles: 1e400
    // would be Infinity (and null once written back as JSON), so it is refused here, at its place.
    if (!Number.isFinite(value)) this.fail(`number out of range: ${match[0].length > 40 ? `${match[0].slice(0, 40)}…` : match[0]} is beyond what a double can hold`, start);
    this.pos += match[0].length;
    return value;
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      const next = this.text[this.pos + word.length];
      if (next === undefined || !/[A-Za-z0-9_]/.test(next)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(`expected a JSON value but found ${this.describeHere()}`);
  }
}
