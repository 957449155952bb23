// Cookies whose value only this server can read or make: AES-256-GCM over a small JSON
// payload, with the cookie's name as associated data (a sign-in state cookie cannot be
// replayed as a session) and an expiry inside the sealed payload (a copied cookie stops
// working when its time is up, whatever its Max-Age said).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

export class CookieSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the cookie key must be 32 bytes");
  }

  seal(name: string, payload: object, ttlSeconds: number, now = Date.now()): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(name));
    const body = Buffer.from(JSON.stringify({ exp: Math.floor(now / 1000) + ttlSeconds, data: payload }));
    const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
  }

  /** The payload, or undefined for a value that is tampered with, sealed under another key or name, or expired. */
  open<T>(name: string, value: string | undefined, now = Date.now()): T | undefined {
    if (!value?.startsWith(`${VERSION}.`)) return undefined;
    const raw = Buffer.from(value.slice(VERSION.length + 1), "base64url");
    if (raw.length < 12 + 16 + 1) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(name));
      decipher.setAuthTag(raw.subarray(12, 28));
      const body = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      const parsed = JSON.parse(body.toString("utf8")) as { exp: number; data: T };
      return parsed.exp > now / 1000 ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The cookies of a Cookie header, by name (the first of a repeated name wins, as browsers send the most specific first). */
export function readCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
}

/**
 * A Set-Cookie value: HttpOnly always (no script reads it), SameSite=Lax (the OAuth callback
 * is a cross-site top-level navigation that must carry the sign-in state), Path=/.
 */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  return [`${name}=${value}`, "Path=/", `Max-Age=${options.maxAge}`, "HttpOnly", "SameSite=Lax", ...(options.secure ? ["Secure"] : [])].join("; ");
}
