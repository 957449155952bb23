// The Agent Server's side of review gates: `resumeRedaction(team)`, the Hono app a team's
// src/server.ts gives langgraph.json's `http.app`. The server (@langchain/langgraph-api) mounts
// that app's routes before its own, so this middleware sees each request first.
//
// LangGraph.js writes a run's `command.resume` to the checkpointer as it arrives, before any
// node runs, so the JSON body of each request that creates a run (or a cron that will) is
// rewritten first: every secret value of the team (its secrets as set in the server's
// environment), in keys as in values, is redacted (redaction.ts), and the value is `bounded`
// (a too long record or action cut so the gates refuse it, other text cut at TEXT_LIMIT, lists
// and maps past MAX_ITEMS ended with a count). A body over MAX_BODY is refused (413). The
// server's other ways to resume a run (protocol v2's commands and event stream, A2A), which
// cannot be cleaned so, are refused (403). Nothing else of any request is read or changed.
// The same contract as the Python runtime's envelope_runtime.langgraph.server_app.
import { Hono } from "hono";
import { cut, ECHO_LIMIT, MAX_PROBLEMS } from "./gates.js";
import { redact, secretValues } from "./redaction.js";
/** The routes that create runs, or crons that will (and a cron's PATCH). */
export const RUN_PATH = /\/runs(?:\/wait|\/stream|\/batch|\/crons(?:\/[^/]+)?)?\/?$/;
export const CLEANED_METHODS = ["POST", "PATCH"];
/** The routes that resume a run in a shape this middleware does not clean: refused. */
export const REFUSED_PATH = /\/threads\/[^/]+\/(?:commands|stream\/events)\/?$|\/a2a(?:\/.*)?$/;
export const MAX_BODY = 8 * 1024 * 1024; // bytes of a request that creates a run, at most
export const TEXT_LIMIT = 2000; // characters of feedback (or any other text) kept
export const MAX_ITEMS = 1000; // decisions (or items of any list or map) kept
export const MAX_DEPTH = 8; // levels of lists and maps kept
if (MAX_PROBLEMS >= MAX_ITEMS)
    throw new Error("a gate answers at most MAX_PROBLEMS problems: keep MAX_ITEMS above it");
/** A record id or action longer than this is no gate's of the team (ids are `r<n>`). */
export function longestAccepted(team) {
    return Math.max(ECHO_LIMIT, ...team.gates.flatMap((g) => g.actions.map((a) => Array.from(a.label).length)));
}
/** `text` whole up to `limit` characters, else its start and length (gates.cut's form). */
function text(value, limit = TEXT_LIMIT) {
    const chars = Array.from(value);
    if (chars.length <= limit)
        return value;
    const suffix = `… (${chars.length} characters)`;
    return chars.slice(0, Math.max(limit - suffix.length, 0)).join("") + suffix;
}
const same = (value) => value;
/**
 * `value` with every text, list, map and nesting bounded: a decision's `record` or `action`
 * longer than `longest` (longestAccepted) is cut to what the gates refuse (gates.cut), any other
 * text to TEXT_LIMIT characters; a list or map past MAX_ITEMS items ends with one that says how
 * many there were; past MAX_DEPTH levels a list or map is replaced by a text that says so.
 * `clean` changes each text and key that is kept, before it is cut (and before keys that become
 * equal merge, the last one's item kept).
 */
export function bounded(value, longest, depth = 0, key = "", clean = same) {
    if (typeof value === "string") {
        const cleaned = clean(value);
        if ((key === "record" || key === "action") && Array.from(cleaned).length > longest)
            return cut(cleaned);
        return text(cleaned);
    }
    if (value === null || typeof value !== "object")
        return value;
    if (depth >= MAX_DEPTH)
        return `… (nested deeper than ${MAX_DEPTH} levels)`;
    if (Array.isArray(value)) {
        const kept = value.slice(0, MAX_ITEMS).map((item) => bounded(item, longest, depth + 1, "", clean));
        if (value.length > MAX_ITEMS) {
            const more = `… and ${value.length - MAX_ITEMS} more items`;
            kept.push(key === "decisions" ? { record: more, action: more } : more);
        }
        return kept;
    }
    const entries = Object.entries(value);
    // A Map, then Object.fromEntries: a key such as "__proto__" stays a plain key.
    const items = new Map();
    for (const [k, item] of entries.slice(0, MAX_ITEMS))
        items.set(clean(k), item);
    const out = new Map();
    for (const [k, item] of items)
        out.set(text(k, ECHO_LIMIT), bounded(item, longest, depth + 1, k, clean));
    if (entries.length > MAX_ITEMS)
        out.set("…", `and ${entries.length - MAX_ITEMS} more keys`);
    return Object.fromEntries(out);
}
/** A resume value without secret values (`secrets`: names → values; keys included), bounded. */
export function cleanedResume(resume, secrets, longest) {
    // Redacted part by part as `bounded` keeps it: items past MAX_ITEMS are never redacted, and
    // each text is redacted whole before it is cut, so a secret across the cut shows no part.
    return bounded(resume, longest, 0, "", (t) => redact(t, secrets));
}
/** Whether a JSON body may hold a `command` key (written plainly or with escapes). */
export const mayHoldCommand = (body) => body.includes('"command"') || body.includes("\\u");
/** The request body with each run's `command.resume` cleaned; `body` itself when it holds none (or is not JSON: the server answers that). */
export function rewritten(body, secrets, longest) {
    if (!mayHoldCommand(body))
        return body;
    let payload;
    try {
        payload = JSON.parse(body);
    }
    catch {
        return body;
    }
    let changed = false;
    for (const run of Array.isArray(payload) ? payload : [payload]) {
        if (run === null || typeof run !== "object" || Array.isArray(run))
            continue;
        for (const holder of [run, run.payload]) {
            // a cron's PATCH nests its run's fields under `payload`
            if (holder === null || typeof holder !== "object" || Array.isArray(holder))
                continue;
            const command = holder.command;
            if (command === null || typeof command !== "object" || Array.isArray(command))
                continue;
            const c = command;
            if (c.resume === null || c.resume === undefined)
                continue;
            c.resume = cleanedResume(c.resume, secrets, longest);
            changed = true;
        }
    }
    return changed ? JSON.stringify(payload) : body;
}
function problem(status, title, detail) {
    return new Response(JSON.stringify({ type: "about:blank", title, status, detail }), { status, headers: { "content-type": "application/problem+json" } });
}
export const REFUSED_DETAIL = "this team's server takes a gate's decisions only through its runs routes " +
    "(POST /threads/<id>/runs[/wait|/stream] with command.resume), where secret values are " +
    "redacted before they are stored; protocol v2 event streaming and A2A are off";
const tooLarge = () => problem(413, "Content Too Large", `a run's body is ${MAX_BODY} bytes at most`);
/** The body, or null past MAX_BODY bytes (read no further). */
async function readBody(request) {
    if (request.body === null)
        return new Uint8Array();
    const chunks = [];
    let size = 0;
    const reader = request.body.getReader();
    for (;;) {
        const { done, value } = await reader.read();
        if (done)
            break;
        size += value.byteLength;
        if (size > MAX_BODY) {
            await reader.cancel();
            return null;
        }
        chunks.push(value);
    }
    return Buffer.concat(chunks);
}
/** The middleware of `resumeRedaction`, for the team `team` (its secrets read from `env` per request). */
export function resumeRedactionMiddleware(team, env = process.env) {
    const longest = longestAccepted(team);
    return async (c, next) => {
        const path = new URL(c.req.url).pathname;
        if (REFUSED_PATH.test(path))
            return problem(403, "Forbidden", REFUSED_DETAIL);
        if (!CLEANED_METHODS.includes(c.req.method) || !RUN_PATH.test(path))
            return next();
        const length = c.req.header("content-length");
        if (length !== undefined && /^\d+$/.test(length) && Number(length) > MAX_BODY)
            return tooLarge();
        const raw = await readBody(c.req.raw);
        if (raw === null)
            return tooLarge();
        const sent = new TextDecoder().decode(raw);
        const cleaned = rewritten(sent, secretValues(team.secrets, env), longest);
        const body = cleaned === sent ? raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) : cleaned; // unchanged: the bytes as sent
        const headers = new Headers(c.req.raw.headers);
        headers.delete("content-length"); // the body's own length now
        // The server's handler reads the body from c.req (its validator): a fresh request with the cleaned body.
        c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, body, signal: c.req.raw.signal });
        c.req.bodyCache = {};
        return next();
    };
}
/**
 * The app langgraph.json's `http.app` names (a team's src/server.ts exports it): no routes of
 * its own, only the middleware, for the team `team`.
 */
export function resumeRedaction(team, env = process.env) {
    const app = new Hono();
    app.use("*", resumeRedactionMiddleware(team, env));
    return app;
}
