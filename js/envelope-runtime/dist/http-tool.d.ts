import { z } from "zod";
import { type AccessPolicy } from "./policy.js";
export declare const HTTP_METHODS: readonly ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
/** The most characters of a response body the model is given. */
export declare const BODY_LIMIT = 20000;
export declare const HttpRequestInput: z.ZodObject<{
    method: z.ZodEnum<{
        GET: "GET";
        POST: "POST";
        PUT: "PUT";
        PATCH: "PATCH";
        DELETE: "DELETE";
        HEAD: "HEAD";
        OPTIONS: "OPTIONS";
    }>;
    url: z.ZodString;
    headers: z.ZodDefault<z.ZodArray<z.ZodObject<{
        name: z.ZodString;
        value: z.ZodString;
    }, z.core.$strip>>>;
    body: z.ZodDefault<z.ZodNullable<z.ZodString>>;
}, z.core.$strip>;
export interface HttpToolOptions {
    policy: AccessPolicy;
    variables: readonly string[];
    secrets: readonly string[];
    /** The transport (tests give their own). */
    fetch?: typeof fetch;
    /** The agent's timeoutMs, as its pack tools get it (default 30 s). */
    timeoutMs?: number;
    /** Where the secrets' and variables' values are read: the build's env (default: process.env). */
    env?: Readonly<Record<string, string | undefined>>;
}
/** What the tool does with one request: the text the model gets back. */
export declare function httpRequest(args: z.infer<typeof HttpRequestInput>, options: HttpToolOptions): Promise<string>;
export declare function httpRequestTool(options: HttpToolOptions): import("langchain").DynamicStructuredTool<z.ZodObject<{
    method: z.ZodEnum<{
        GET: "GET";
        POST: "POST";
        PUT: "PUT";
        PATCH: "PATCH";
        DELETE: "DELETE";
        HEAD: "HEAD";
        OPTIONS: "OPTIONS";
    }>;
    url: z.ZodString;
    headers: z.ZodDefault<z.ZodArray<z.ZodObject<{
        name: z.ZodString;
        value: z.ZodString;
    }, z.core.$strip>>>;
    body: z.ZodDefault<z.ZodNullable<z.ZodString>>;
}, z.core.$strip>, {
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";
    url: string;
    headers: {
        name: string;
        value: string;
    }[];
    body: string | null;
}, {
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";
    url: string;
    headers?: {
        name: string;
        value: string;
    }[] | undefined;
    body?: string | null | undefined;
}, string, unknown, "http_request">;
