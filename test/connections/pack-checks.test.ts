// What `envelope export --connections` checks of a pack beyond its schema, through the CLI as a
// process (bin/envelope.js, the bundle an export runs): an `apiHosts` entry that is a public
// suffix of the Public Suffix List (ICANN or private section) is refused at its place, and an
// OpenAPI pack whose own server lies outside its `apiHosts` is exported with a warning that
// names the server and the hosts (every call of its tools would be refused at run time).
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runBin } from "../helpers/cli.js";

const TEAM = join(ROOT, "test/fixtures/connections/helpdesk-triage.envelope.json");
const PACKS = join(ROOT, "test/fixtures/connections");

/** A copy of the fixture's packs, `edit` applied to the helpdesk pack's JSON (and `api` to its OpenAPI document). */
function packsWith(edit: (pack: { provider: { apiHosts: string[] } }) => void, api?: (doc: { servers: Array<{ url: string }> }) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "envelope-pack-checks-"));
  cpSync(PACKS, join(dir, "packs"), { recursive: true });
  const packFile = join(dir, "packs", "helpdesk", "pack.json");
  const pack = JSON.parse(readFileSync(packFile, "utf8"));
  edit(pack);
  writeFileSync(packFile, JSON.stringify(pack, null, 2) + "\n");
  if (api) {
    const docFile = join(dir, "packs", "helpdesk", "openapi.json");
    const doc = JSON.parse(readFileSync(docFile, "utf8"));
    api(doc);
    writeFileSync(docFile, JSON.stringify(doc, null, 2) + "\n");
  }
  return join(dir, "packs");
}

/** "line:column" (1-based) of the first occurrence of `text` in `file`. */
function placeOf(file: string, text: string): string {
  const lines = readFileSync(file, "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes(text));
  return `${line + 1}:${lines[line]!.indexOf(text) + 1}`;
}

describe("apiHosts: a public suffix is refused", () => {
  it.each([
    ["co.uk", "ICANN section", /every domain registered under co\.uk/],
    ["github.io", "private section", /github\.io lets anyone have a name under it/],
    ["herokuapp.com", "private section", /herokuapp\.com lets anyone have a name under it/],
  ])("%s (%s): exit 1, the pack's file, line:column and pointer, nothing written", (suffix, section, why) => {
    const packs = packsWith((p) => {
      p.provider.apiHosts = ["helpdesk.example.com", suffix];
    });
    const out = join(packs, "..", "out");
    const r = runBin(["export", TEAM, "--target", "crewai", "--out", out, "--connections", packs]);
    expect(r.code, r.stderr).toBe(1);
    const packFile = join(packs, "helpdesk", "pack.json");
    expect(r.stderr).toContain(`${packFile}:${placeOf(packFile, `"${suffix}"`)}: error E_PACK_API_HOST_SUFFIX apiHosts entry "${suffix}" is a public suffix (the Public Suffix List's ${section})`);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toContain("at /provider/apiHosts/1");
    expect(existsSync(out)).toBe(false);
  });

  it("a registrable domain under a multi-label suffix, and a host under a private suffix, are accepted", () => {
    const packs = packsWith((p) => {
      p.provider.apiHosts = ["helpdesk.example.com", "helpdesk.example.co.uk", "helpdesk.github.io"];
    });
    const r = runBin(["export", TEAM, "--target", "crewai", "--dry-run", "--connections", packs]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("E_PACK_API_HOST_SUFFIX");
  });
});

describe("an OpenAPI server outside the pack's apiHosts", () => {
  it.each(["crewai", "langgraph"])("%s: exported, with a warning naming the server and the hosts (and the loss report saying so)", (target) => {
    const packs = packsWith(
      () => undefined,
      (doc) => {
        doc.servers = [{ url: "https://api.helpdesk-eu.example.net/v2" }];
      },
    );
    const out = join(packs, "..", "out");
    const r = runBin(["export", TEAM, "--target", target, "--out", out, "--connections", packs]);
    expect(r.code, r.stderr).toBe(0);
    const doc = join(packs, "helpdesk", "openapi.json");
    expect(r.stderr).toContain(
      `${doc}:${placeOf(doc, '"https://api.helpdesk-eu')}: warning W_PACK_SERVER_OUTSIDE_API_HOSTS the OpenAPI server https://api.helpdesk-eu.example.net/v2 (servers[0].url) is not under the pack's apiHosts (helpdesk.example.com): every call of the pack's tools would be refused at run time`,
    );
    expect(r.stderr).toContain("at /servers/0/url");
    expect(existsSync(join(out, "pyproject.toml"))).toBe(true);
    const report = readFileSync(join(out, "ENVELOPE_EXPORT.md"), "utf8");
    expect(report).toMatch(/\| `helpdesk` \| `triager` \| carried \| 2 OpenAPI tools .*; but its server https:\/\/api\.helpdesk-eu\.example\.net\/v2 is not under its apiHosts \(helpdesk\.example\.com\): every call is refused at run time/);
  });

  it("a server under the apiHosts: no warning", () => {
    const r = runBin(["export", TEAM, "--target", "crewai", "--dry-run", "--connections", PACKS]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("W_PACK_SERVER_OUTSIDE_API_HOSTS");
  });
});
