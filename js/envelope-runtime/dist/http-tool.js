// The policy-checked `http_request` tool an agent with egress gets: every request is judged
// by the agent's access policy first (policy.ts), `{{NAME}}` in the URL and headers filled
// from the run's variables and secrets, the answer's secret values redacted before the model
// (and the checkpoints) see it.
import { tool } from "langchain";
import { z } from "zod";
import { render } from "./placeholders.js";
import { evaluate, refusedHeader } from "./policy.js";
import { redact, secretValues } from "./redaction.js";
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
/** The most characters of a response body the model is given. */
export const BODY_LIMIT = 20_000;
export const HttpRequestInput = z.object({
    method: z.enum(HTTP_METHODS).describe("HTTP method."),
    url: z.string().describe("Absolute http(s) URL."),
    headers: z
        .array(z.object({ name: z.string().describe("Header name, e.g. Accept."), value: z.string().describe("Header value; {{NAME}} stands for a secret or variable.") }))
        .default([])
        .describe('Request headers (optional), as name/value pairs, e.g. [{"name": "Accept", "value": "application/json"}].'),
    body: z.string().nullable().default(null).describe("Request body (optional)."),
});
/** What the tool does with one request: the text the model gets back. */
export async function httpRequest(args, options) {
    const secrets = secretValues(options.secrets, options.env);
    const variables = secretValues(options.variables, options.env);
    const values = { ...variables, ...secrets };
    const url = render(args.url, values);
    const decision = evaluate(options.policy, args.method, url, variables);
    if (!decision.allowed)
        return redact(`Refused by the access policy: ${decision.reason}`, secrets);
    const headers = (args.headers ?? []).map((h) => [h.name, render(h.value, values)]);
    const refused = refusedHeader(headers);
    if (refused)
        return `Refused: ${refused}`;
    try {
        const response = await (options.fetch ?? fetch)(decision.url, {
            method: args.method,
            headers: headers.map(([n, v]) => [n, v]),
            redirect: "manual",
            signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
            ...(args.body !== null && args.body !== undefined && args.method !== "GET" && args.method !== "HEAD" ? { body: render(args.body, values) } : {}),
        });
        const text = await response.text();
        const shown = text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} characters)` : text;
        return redact(`HTTP ${response.status}\n${shown}`, secrets);
    }
    catch (error) {
        return redact(`The request failed: ${error instanceof Error ? error.message : String(error)}`, secrets);
    }
}
export function httpRequestTool(options) {
    return tool(async (args) => httpRequest(args, options), {
        name: "http_request",
        description: "Send an HTTP request. Only requests the agent's access policy allows are sent; others are refused with the reason.",
        schema: HttpRequestInput,
    });
}
