// OpenWOP's `apiHosts` rule (connection-pack manifest, RFC 0120): the hosts a pack's
// credential may be sent to. An entry allows itself and its subdomains — dot-anchored suffix
// containment — and nothing else: `api.x.com` allows `api.x.com` and `eu.api.x.com`, never
// `evilapi.x.com` or `api.x.com.evil.net`. spec/api-hosts-vectors.json holds the shared cases
// that every exported runtime checks too. Fail-closed: a host that is not a plain lowercase
// hostname (an IP literal, a trailing dot, a port, anything odd) matches no entry.

import { createRequire } from "node:module";

const PLAIN_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** Whether a request to `host` (as in the URL, any case) may carry a credential of a pack with `apiHosts`. */
export function apiHostsAllow(apiHosts: readonly string[], host: string): boolean {
  const h = host.toLowerCase();
  if (!PLAIN_HOST.test(h) || /^[0-9.]+$/.test(h)) return false;
  return apiHosts.some((entry) => h === entry || h.endsWith(`.${entry}`));
}

/** What `tldts` answers for a hostname (the fields read here). */
interface ParsedHost {
  domain: string | null;
  publicSuffix: string | null;
  isPrivate: boolean | null;
}

type ParseHost = (host: string, options: { allowPrivateDomains: boolean }) => ParsedHost;
let parseHost: ParseHost | undefined;

/**
 * Why an `apiHosts` entry may not stand, or undefined. An entry that is itself a public suffix of
 * the Public Suffix List (`co.uk`, `github.io`) would hand the pack's credential to every owner
 * under it: the schema's floor is the registrable domain (eTLD+1). The private section counts
 * too: `github.io` or `herokuapp.com` lets anyone have a name under it. The list is `tldts`'s,
 * a maintained copy, loaded only when a pack is read (its trie costs an export without packs
 * nothing).
 */
export function apiHostProblem(entry: string): { message: string; hint: string } | undefined {
  parseHost ??= (createRequire(import.meta.url)("tldts") as { parse: ParseHost }).parse;
  const parsed = parseHost(entry, { allowPrivateDomains: true });
  if (parsed.domain !== null || parsed.publicSuffix !== entry) return undefined;
  const why = parsed.isPrivate
    ? `(the Public Suffix List's private section): ${entry} lets anyone have a name under it, so the pack's credential would go to hosts of many different owners`
    : `(the Public Suffix List's ICANN section): every domain registered under ${entry} would get the pack's credential`;
  return {
    message: `apiHosts entry "${entry}" is a public suffix ${why}`,
    hint: `name the provider's registrable domain or API host under it (e.g. api.example.${entry})`,
  };
}
