// A package index of our own on 127.0.0.1 (port 0), for the runtime-index tests: the PEP 503
// "simple" repository API over a few distribution files given by path — what an
// organisation's private index serves, minus everything else. `/simple/` lists the projects,
// `/simple/<project>/` links each of its files with `#sha256=<hex>` (and Requires-Python when
// the caller gives it) and serves them beside the page, `/simple/<project>/<file>` — the plain
// layout of a folder served as an index, the one an export's uv.lock assumes for its
// --runtime-index (src/targets/python-common/uv-lock.ts). A project URL without its trailing
// slash redirects to it (PEP 503). Every request is recorded, so a test can see what was
// fetched from here.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

export interface IndexFile {
  path: string;
  /** The distribution's Requires-Python, for `data-requires-python` (PEP 503). */
  requiresPython?: string;
}

export interface PackageIndex {
  /** `http://127.0.0.1:PORT/simple/`: the URL an installer's index setting takes. */
  url: string;
  /** Every request, as `METHOD /path`, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** PEP 503's normalized project name. */
export function normalizeName(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/** The project a wheel or sdist file belongs to: `envelope_runtime-0.1.0-py3-none-any.whl` → `envelope-runtime`. */
export function projectOf(filename: string): string {
  const wheel = /^([^-]+)-[^-]+(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(filename);
  const sdist = /^(.+)-[^-]+\.(tar\.gz|zip)$/.exec(filename);
  const name = wheel?.[1] ?? sdist?.[1];
  if (!name) throw new Error(`${filename}: neither a wheel nor an sdist name`);
  return normalizeName(name);
}

const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function page(title: string, links: string[]): string {
  return `<!DOCTYPE html>\n<html>\n  <head><meta name="pypi:repository-version" content="1.0"><title>${escapeHtml(title)}</title></head>\n  <body>\n${links.map((l) => `    ${l}<br/>`).join("\n")}\n  </body>\n</html>\n`;
}

export async function startPackageIndex(files: readonly IndexFile[]): Promise<PackageIndex> {
  const byName = new Map<string, { bytes: Buffer; sha256: string; project: string; requiresPython?: string }>();
  for (const f of files) {
    const bytes = readFileSync(f.path);
    const name = basename(f.path);
    byName.set(name, { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), project: projectOf(name), ...(f.requiresPython ? { requiresPython: f.requiresPython } : {}) });
  }
  const projects = [...new Set([...byName.values()].map((f) => f.project))].sort();
  const requests: string[] = [];

  const answer = (res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(body)), "cache-control": "no-store", ...headers });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://index").pathname);
    requests.push(`${req.method} ${path}`);
    if (req.method !== "GET" && req.method !== "HEAD") return answer(res, 405, "text/plain", "GET only\n");
    if (path === "/simple/") return answer(res, 200, "text/html", page("Simple index", projects.map((p) => `<a href="${p}/">${p}</a>`)));
    const project = /^\/simple\/([^/]+)(\/?)$/.exec(path);
    if (project) {
      const name = normalizeName(project[1]!);
      if (!projects.includes(name)) return answer(res, 404, "text/plain", "no such project\n");
      // PEP 503: the canonical URL ends in a slash, and other spellings redirect to it.
      if (project[2] !== "/" || project[1] !== name) return answer(res, 301, "text/plain", "", { location: `/simple/${name}/` });
      const links = [...byName.entries()]
        .filter(([, f]) => f.project === name)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([file, f]) => `<a href="${encodeURIComponent(file)}#sha256=${f.sha256}"${f.requiresPython ? ` data-requires-python="${escapeHtml(f.requiresPython)}"` : ""}>${escapeHtml(file)}</a>`);
      return answer(res, 200, "text/html", page(`Links for ${name}`, links));
    }
    const file = /^\/simple\/([^/]+)\/([^/]+)$/.exec(path);
    if (file && byName.get(file[2]!)?.project === file[1]) return answer(res, 200, "application/octet-stream", byName.get(file[2]!)!.bytes);
    return answer(res, 404, "text/plain", "not found\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/simple/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
