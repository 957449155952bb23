// The memory of ended sign-ins (github-sign-in.ts): bounded, and never failing open. A sealed
// cookie is stateless, so sign-out ends it by its id; past the bound, every sign-in sealed until
// then is ended rather than one being forgotten. (Over HTTP, with the fake GitHub: sign-in.test.ts.)
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { GitHubSignIn, type GitHubSession } from "../../src/serve/github-sign-in.js";
import { CookieSealer } from "../../src/serve/sealed-cookie.js";

const key = randomBytes(32);
const sealer = new CookieSealer(key);
/** Whole seconds, as the sign-in seals them; now, so the seals have not expired. */
const NOW = Math.floor(Date.now() / 1000) * 1000;

function signIn(maxEnded: number): GitHubSignIn {
  return new GitHubSignIn({ app: { clientId: "id", clientSecret: "secret", webUrl: "https://github.invalid" }, apiUrl: "https://api.github.invalid", publicUrl: undefined, key, maxEnded, warn: () => undefined });
}

/** A request carrying the cookie of a sign-in sealed at `iat` (seconds). */
function request(sid: string, iat = NOW / 1000): FastifyRequest {
  const session: GitHubSession = { token: `token-${sid}`, login: "me", scopes: ["public_repo"], sid, iat };
  return { headers: { cookie: `envelope_github=${sealer.seal("envelope_github", session, 3600, iat * 1000)}` } } as unknown as FastifyRequest;
}

const cleared: string[] = [];
const reply = { header: (_name: string, value: string) => cleared.push(value) } as unknown as FastifyReply;

describe("ended sign-ins", () => {
  it("an ended id is refused; others are not; past the bound every sign-in sealed until then ends, later ones do not", () => {
    const s = signIn(3);
    for (const sid of ["a", "b", "c"]) {
      const session = s.session(request(sid))!;
      expect(session.sid).toBe(sid);
      s.end(session, reply, NOW);
      expect(s.session(request(sid))).toBeUndefined();
    }
    expect(cleared.every((c) => /^envelope_github=; .*Max-Age=0/.test(c))).toBe(true);
    expect(s.session(request("d"))?.sid).toBe("d");
    // The fourth end finds the memory full: it ends every sign-in sealed up to now, "d" included.
    s.end(s.session(request("e"))!, reply, NOW);
    for (const sid of ["a", "b", "c", "d", "e"]) expect(s.session(request(sid)), sid).toBeUndefined();
    expect(s.session(request("f", NOW / 1000 + 2))?.sid).toBe("f");
  });

  it("an ended id is forgotten once its cookie would have expired anyway, making room", () => {
    const s = signIn(1);
    s.end(s.session(request("a"))!, reply, NOW);
    // An hour on, "a" has expired by its own seal; ending "b" then overflows nothing.
    const later = NOW + 3601 * 1000;
    const b = request("b", later / 1000);
    s.end(s.session(b)!, reply, later);
    expect(s.session(request("c", later / 1000))?.sid).toBe("c");
  });

  it("a cookie sealed without an id (an older server's, under the same key) is no sign-in", () => {
    const old = { headers: { cookie: `envelope_github=${sealer.seal("envelope_github", { token: "t", login: "me", scopes: [] }, 3600)}` } } as unknown as FastifyRequest;
    expect(signIn(3).session(old)).toBeUndefined();
  });
});
