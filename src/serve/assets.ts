// The handoff page's files, read once at start from a fixed list: web/ (the page's script is
// app.js with the module markdown.js), the example definition the page's "Try the example"
// loads, and the syntax highlighter (Prism, from node_modules) joined into one script. A request names only a key
// of this table, never a path, so nothing it sends can reach another file on the server.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const WEB = new URL("../../web/", import.meta.url);
const EXAMPLE = new URL("../../examples/support-tier.envelope.json", import.meta.url);

/** Prism's core and the grammars of every file type an export contains, in dependency order. */
const PRISM = ["prism-core", "prism-markup", "prism-clike", "prism-python", "prism-toml", "prism-yaml", "prism-markdown", "prism-json", "prism-bash", "prism-ini"];

function asset(body: Buffer | string, type: string): Asset {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return { body: bytes, type, etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"` };
}

function prismBundle(): string {
  const require = createRequire(import.meta.url);
  const parts = [
    "/* Prism (MIT, prismjs.com), served by envelope serve. Manual mode: the page tokenizes and builds DOM nodes itself. */",
    "window.Prism = { manual: true, disableWorkerMessageHandler: true };",
  ];
  for (const name of PRISM) parts.push(readFileSync(require.resolve(`prismjs/components/${name}.min.js`), "utf8"));
  return parts.join("\n;\n") + "\n";
}

let cached: Map<string, Asset> | undefined;

/** URL path → asset. */
export function pageAssets(): Map<string, Asset> {
  if (cached) return cached;
  const read = (name: string) => readFileSync(new URL(name, WEB));
  cached = new Map([
    ["/", asset(read("index.html"), "text/html; charset=utf-8")],
    ["/assets/app.js", asset(read("app.js"), "text/javascript; charset=utf-8")],
    ["/assets/markdown.js", asset(read("markdown.js"), "text/javascript; charset=utf-8")],
    ["/assets/sign-in.js", asset(read("sign-in.js"), "text/javascript; charset=utf-8")],
    ["/assets/example.envelope.json", asset(readFileSync(EXAMPLE), "application/json; charset=utf-8")],
    ["/assets/style.css", asset(read("style.css"), "text/css; charset=utf-8")],
    ["/assets/favicon.svg", asset(read("favicon.svg"), "image/svg+xml")],
    ["/assets/prism.js", asset(prismBundle(), "text/javascript; charset=utf-8")],
  ]);
  return cached;
}

/**
 * The page's Content-Security-Policy: only our own scripts, styles and images, requests only
 * to our own origin, no inline code, no frames, no plugins, and Trusted Types with no policy,
 * so an innerHTML (or any other HTML sink) with a string throws instead of parsing markup.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "manifest-src 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

/** Everything else the server answers is data, never a document. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
