// Everything that can stop a publish, as one error class with a stable `kind`. Each kind
// says what the person can do about it; the CLI maps kinds to distinct exit codes. Messages
// are built only from our own words and GitHub's short `message` field — never from request
// options or headers — and pass through the token redactor anyway.

export type PublishErrorKind =
  /** OWNER/NAME already names a repository. `suggestions` lists free names. */
  | "name-taken"
  /** 401: the token is wrong, expired or revoked. */
  | "bad-credentials"
  /** The token lacks a scope or permission (named in the message), or may not create there. */
  | "missing-permission"
  /** OWNER is no user or organization the token can see. */
  | "owner-not-found"
  /** A rate limit outlasted the waits and retries. */
  | "rate-limited"
  /** GitHub answered 5xx, timed out or could not be reached, even after retries. */
  | "github-unavailable"
  /** Creating the repository failed in a way that may have created it; not retried. */
  | "create-uncertain"
  /** GitHub refused the request or the content (another 4xx, a file too large). */
  | "rejected"
  /** An update was asked of a repository that does not exist or holds no envelope-export ledger. */
  | "not-an-export"
  /** The caller's input cannot be published (bad OWNER/NAME, no token, no files). */
  | "invalid-input";

export interface LeftRepository {
  fullName: string;
  url: string;
}

export class PublishError extends Error {
  override readonly name = "PublishError";
  constructor(
    readonly kind: PublishErrorKind,
    message: string,
    readonly details: {
      hint?: string;
      /** Free repository names, for "name-taken". */
      suggestions?: string[];
      /** A repository this publish created and could not fill: the person must decide about it. */
      repository?: LeftRepository;
      /** The HTTP status behind the error, if any. */
      status?: number;
    } = {},
  ) {
    super(message);
  }

  get hint(): string | undefined {
    return this.details.hint;
  }
}

/**
 * Replaces every occurrence of the secret in a text. Applied at each boundary where text
 * leaves the publisher (errors, progress, logs) as a second line of defence: by design no
 * message is built from anything that holds the token.
 */
export function redactor(secret: string): (text: string) => string {
  if (secret.length < 4) return (text) => text;
  return (text) => text.split(secret).join("[REDACTED]");
}
