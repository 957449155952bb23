// Faults the fake GitHub can inject, each shaped like GitHub's real answer (bodies from
// GitHub's documentation and from reports of them in the wild; see shared notes).

export interface Fault {
  /** The operationId it applies to ("git/create-tree"), or "*" for any. */
  operation: string;
  /** "before": answer instead of doing the operation; "after": do it, then answer this instead. */
  when?: "before" | "after";
  /** How many matching requests get the fault (default 1). */
  times?: number;
  /** Matching requests to let through before the fault starts. */
  skip?: number;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Close the connection without answering (a network failure). */
  reset?: boolean;
}

const docs = "https://docs.github.com/rest";

/** 5xx: "before" means nothing happened; "after" means the operation happened and the answer was lost. */
export function serverError(operation: string, options: { status?: number; times?: number; when?: "before" | "after" } = {}): Fault {
  const status = options.status ?? 502;
  return {
    operation,
    when: options.when ?? "before",
    times: options.times ?? 1,
    status,
    body: status === 502 ? "<html><body><h1>502 Bad Gateway</h1></body></html>" : { message: "Server Error" },
  };
}

export function connectionReset(operation: string, when: "before" | "after" = "after"): Fault {
  return { operation, when, reset: true };
}

/** GitHub's secondary rate limit: 403 with retry-after. */
export function secondaryRateLimit(operation: string, options: { retryAfter?: number; times?: number; status?: 403 | 429 } = {}): Fault {
  return {
    operation,
    times: options.times ?? 1,
    status: options.status ?? 403,
    headers: { "retry-after": String(options.retryAfter ?? 1) },
    body: {
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.",
      documentation_url: "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      status: String(options.status ?? 403),
    },
  };
}

/** The primary (hourly) limit, resetting `resetIn` seconds from now. */
export function primaryRateLimit(operation: string, resetIn = 3600): Fault {
  return {
    operation,
    times: 1000,
    status: 403,
    headers: { "x-ratelimit-remaining": "0", "x-ratelimit-limit": "5000", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + resetIn) },
    body: { message: "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID 0000.", documentation_url: `${docs}/overview/rate-limits-for-the-rest-api`, status: "403" },
  };
}

/** The Git Data API on a repository GitHub has not finished creating: 409 "Git Repository is empty." */
export function repositoryEmpty(operation = "git/get-ref", times = 2): Fault {
  return { operation, times, status: 409, body: { message: "Git Repository is empty.", documentation_url: `${docs}/git/refs#get-a-reference`, status: "409" } };
}

/** Eventual consistency right after creation: 404 on a repository that exists. */
export function notFoundYet(operation = "git/get-ref", times = 2): Fault {
  return { operation, times, status: 404, body: { message: "Not Found", documentation_url: `${docs}/git/refs#get-a-reference`, status: "404" } };
}
