import { Hono, type MiddlewareHandler } from "hono";
import type { TeamSpec } from "./spec.js";
/** The routes that create runs, or crons that will (and a cron's PATCH). */
export declare const RUN_PATH: RegExp;
export declare const CLEANED_METHODS: readonly string[];
/** The routes that resume a run in a shape this middleware does not clean: refused. */
export declare const REFUSED_PATH: RegExp;
export declare const MAX_BODY: number;
export declare const TEXT_LIMIT = 2000;
export declare const MAX_ITEMS = 1000;
export declare const MAX_DEPTH = 8;
/** A record id or action longer than this is no gate's of the team (ids are `r<n>`). */
export declare function longestAccepted(team: Pick<TeamSpec, "gates">): number;
/**
 * `value` with every text, list, map and nesting bounded: a decision's `record` or `action`
 * longer than `longest` (longestAccepted) is cut to what the gates refuse (gates.cut), any other
 * text to TEXT_LIMIT characters; a list or map past MAX_ITEMS items ends with one that says how
 * many there were; past MAX_DEPTH levels a list or map is replaced by a text that says so.
 * `clean` changes each text and key that is kept, before it is cut (and before keys that become
 * equal merge, the last one's item kept).
 */
export declare function bounded(value: unknown, longest: number, depth?: number, key?: string, clean?: (text: string) => string): unknown;
/** A resume value without secret values (`secrets`: names → values; keys included), bounded. */
export declare function cleanedResume(resume: unknown, secrets: Readonly<Record<string, string>>, longest: number): unknown;
/** Whether a JSON body may hold a `command` key (written plainly or with escapes). */
export declare const mayHoldCommand: (body: string) => boolean;
/** The request body with each run's `command.resume` cleaned; `body` itself when it holds none (or is not JSON: the server answers that). */
export declare function rewritten(body: string, secrets: Readonly<Record<string, string>>, longest: number): string;
export declare const REFUSED_DETAIL: string;
/** The middleware of `resumeRedaction`, for the team `team` (its secrets read from `env` per request). */
export declare function resumeRedactionMiddleware(team: Pick<TeamSpec, "gates" | "secrets">, env?: Readonly<Record<string, string | undefined>>): MiddlewareHandler;
/**
 * The app langgraph.json's `http.app` names (a team's src/server.ts exports it): no routes of
 * its own, only the middleware, for the team `team`.
 */
export declare function resumeRedaction(team: Pick<TeamSpec, "gates" | "secrets">, env?: Readonly<Record<string, string | undefined>>): Hono;
