// OpenWOP's `apiHosts` rule (connection-pack manifest, RFC 0120): the hosts a pack's
// credential may be sent to. An entry allows itself and its subdomains — dot-anchored suffix
// containment — and nothing else: `api.x.com` allows `api.x.com` and `eu.api.x.com`, never
// `evilapi.x.com` or `api.x.com.evil.net`. spec/api-hosts-vectors.json holds the shared cases
// that every exported runtime checks too. Fail-closed: a host that is not a plain lowercase
// hostname (an IP literal, a trailing dot, a port, anything odd) matches no entry.

const PLAIN_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** Whether a request to `host` (as in the URL, any case) may carry a credential of a pack with `apiHosts`. */
export function apiHostsAllow(apiHosts: readonly string[], host: string): boolean {
  const h = host.toLowerCase();
  if (!PLAIN_HOST.test(h) || /^[0-9.]+$/.test(h)) return false;
  return apiHosts.some((entry) => h === entry || h.endsWith(`.${entry}`));
}
