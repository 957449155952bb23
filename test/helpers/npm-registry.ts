// An npm registry of our own on 127.0.0.1 (port 0), for the langgraph-js `--runtime index`
// test: the two requests an install makes of a registry for a package — its packument
// (`GET /<name>`, the document listing its versions with each one's tarball URL and
// integrity) and the tarball (`GET /<name>/-/<file>`) — for a few tarballs made by
// `npm pack`, and every package a lock names besides (an organisation's registry proxies
// npm's public packages; here from npm's cache), minus everything else. Every request is recorded, so a
// test can see what was fetched from here; anything else is a 404.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";

export interface PackedTarball {
  /** The .tgz `npm pack` wrote. */
  path: string;
  /** The package.json inside it (name, version and what a packument repeats of it). */
  manifest: { name: string; version: string } & Record<string, unknown>;
}

export interface NpmRegistry {
  /** `http://127.0.0.1:PORT/`: what `registry=` in an .npmrc takes. */
  url: string;
  /** Every request, as `METHOD /path (status)`, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A package-lock.json (v3): its `packages`, by install path. */
export interface Lockfile {
  packages: Record<string, Record<string, unknown>>;
}

/** What a packument repeats of a version's package.json, as a lock entry has it. */
const MANIFEST_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies", "peerDependenciesMeta", "bin", "engines", "os", "cpu", "libc", "license", "deprecated", "hasInstallScript"];

/** Tarball bytes by integrity from an npm cache (`npm config get cache`): its content-addressed `_cacache/content-v2`. */
export function npmCacheContent(cache: string): (integrity: string) => Buffer | undefined {
  return (integrity) => {
    const [algorithm, digest] = integrity.split(/-(.*)/s) as [string, string];
    const hex = Buffer.from(digest, "base64").toString("hex");
    const file = join(cache, "_cacache/content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
    return existsSync(file) ? readFileSync(file) : undefined;
  };
}

/**
 * Serves `tarballs` (packument and tarball), and, given `lock`, every other package it names:
 * the packument built from its entries (a lock omits `resolved`: npm asks the registry for
 * each package), the tarball from `content` by the entry's integrity (a 404 when it has none).
 */
export async function startNpmRegistry(tarballs: readonly PackedTarball[], lock?: Lockfile, content?: (integrity: string) => Buffer | undefined): Promise<NpmRegistry> {
  const files = new Map<string, Buffer>();
  const versions = new Map<string, Map<string, Record<string, unknown>>>();
  const add = (name: string, version: string, manifest: Record<string, unknown>) => {
    if (!versions.has(name)) versions.set(name, new Map());
    versions.get(name)!.set(version, { ...manifest, name, version, _id: `${name}@${version}` });
  };
  const requests: string[] = [];
  let url = "";
  for (const t of tarballs) {
    const bytes = readFileSync(t.path);
    const path = `/${t.manifest.name}/-/${basename(t.path)}`;
    files.set(path, bytes);
    add(t.manifest.name, t.manifest.version, { ...t.manifest, dist: { tarball: path, integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`, shasum: createHash("sha1").update(bytes).digest("hex") } });
  }
  for (const [path, entry] of Object.entries(lock?.packages ?? {})) {
    const at = path.lastIndexOf("node_modules/");
    if (at < 0 || entry.link || typeof entry.version !== "string") continue;
    const name = path.slice(at + "node_modules/".length);
    if (versions.get(name)?.has(entry.version)) continue;
    const manifest = Object.fromEntries(MANIFEST_FIELDS.filter((f) => f in entry).map((f) => [f, entry[f]]));
    // npm's own tarball path: /<name>/-/<name without its scope>-<version>.tgz.
    const tarball = `/${name}/-/${name.replace(/^@[^/]+\//, "")}-${entry.version}.tgz`;
    const bytes = typeof entry.integrity === "string" ? content?.(entry.integrity) : undefined;
    if (bytes) files.set(tarball, bytes);
    add(name, entry.version, { ...manifest, dist: { tarball, integrity: entry.integrity } });
  }

  const packument = (name: string) => {
    const all = [...versions.get(name)!.values()];
    // Tarball URLs on this registry (stored as paths until the port is known).
    const absolute = all.map((v): [string, Record<string, unknown>] => [v.version as string, { ...v, dist: { ...(v.dist as object), tarball: `${url.slice(0, -1)}${(v.dist as { tarball: string }).tarball}` } }]);
    return { name, "dist-tags": { latest: absolute.at(-1)![0] }, versions: Object.fromEntries(absolute) };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://registry").pathname);
    const answer = (status: number, type: string, body: string | Buffer) => {
      requests.push(`${req.method} ${path} (${status})`);
      res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(body)), "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return answer(405, "text/plain", "GET only\n");
    const name = path.slice(1);
    if (versions.has(name)) return answer(200, "application/json", JSON.stringify(packument(name)));
    const file = files.get(path);
    if (file) return answer(200, "application/octet-stream", file);
    return answer(404, "application/json", JSON.stringify({ error: "not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
