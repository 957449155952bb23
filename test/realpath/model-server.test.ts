// The scripted model server itself: the OpenAI wire format as the official client reads it
// (plain, streaming, tool calls, json_schema), loopback only, every request logged, and a
// 404 for anything but chat completions (so a client on another path shows up).
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eGate, ensureEnv, type PythonEnv } from "../e2e/python-env.js";
import { instanceOf, type ModelServer, startModelServer } from "./model-server.js";

describe("scripted model server", () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer((request) => {
      const schema = request.response_format?.json_schema?.schema;
      if (schema) return { json: instanceOf(schema, "mk", schema, "", 2) };
      if (request.tools?.length) return { toolCalls: [{ name: request.tools[0]!.function.name, arguments: { q: "mk" } }] };
      return { text: "hello mk" };
    });
  });
  afterAll(() => server.close());

  const post = (body: object) => fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("listens on 127.0.0.1 only and logs every body", async () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const r = await post({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(((await r.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe("hello mk");
    expect(server.chats().at(-1)!.messages[0]!.content).toBe("hi");
    expect((await fetch(`${server.baseUrl}/responses`, { method: "POST", body: "{}" })).status).toBe(404);
    expect(server.requests.at(-1)!.path).toBe("/v1/responses");
  });

  it("streams SSE chunks ending in [DONE], and json_schema answers are schema instances", async () => {
    const text = await (await post({ model: "m", stream: true, stream_options: { include_usage: true }, messages: [] })).text();
    const events = text.split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const deltas = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)) as { choices: Array<{ delta: { content?: string } }>; usage?: object });
    expect(deltas.map((d) => d.choices[0]?.delta.content ?? "").join("")).toBe("hello mk");
    expect(deltas.at(-1)!.usage).toBeDefined();
    const schema = { type: "object", properties: { records: { type: "array", items: { $ref: "#/$defs/R" } } }, $defs: { R: { type: "object", properties: { a: { type: "string" }, n: { anyOf: [{ type: "integer" }, { type: "null" }] } } } } };
    const r = (await (await post({ model: "m", messages: [], response_format: { type: "json_schema", json_schema: { name: "x", schema } } })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(r.choices[0]!.message.content)).toEqual({ records: [{ a: "mk.records[0].a", n: 1 }, { a: "mk.records[1].a", n: 1 }] });
  });

  it("closes itself after its lifetime", async () => {
    const short = await startModelServer(() => ({ text: "x" }), 200);
    await new Promise((r) => setTimeout(r, 400));
    await expect(fetch(`${short.baseUrl}/models`)).rejects.toThrow();
  });
});

// The official OpenAI Python client (what CrewAI's and LangChain's OpenAI clients wrap) reads
// our answers: plain, streamed, and streamed tool calls.
const gate = e2eGate();
describe.runIf(gate.run)("scripted model server with the openai Python client", () => {
  let env: PythonEnv;
  let server: ModelServer;
  beforeAll(async () => {
    env = ensureEnv("crewai", gate.python!);
    server = await startModelServer((request) => (request.tools?.length ? { toolCalls: [{ name: "lookup", arguments: { q: "mk" } }] } : { text: "hello mk" }));
  }, 1_800_000);
  afterAll(() => server?.close());

  it("plain, streaming and tool-call answers", async () => {
    const code = `
import json, openai
c = openai.OpenAI(base_url=${JSON.stringify(server.baseUrl)}, api_key="dummy", max_retries=0)
plain = c.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}]).choices[0].message.content
streamed = "".join(ch.choices[0].delta.content or "" for ch in c.chat.completions.create(model="m", messages=[], stream=True) if ch.choices)
tools = [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]
args = ""
for ch in c.chat.completions.create(model="m", messages=[], tools=tools, stream=True):
    for call in (ch.choices[0].delta.tool_calls or []) if ch.choices else []:
        args += call.function.arguments or ""
print(json.dumps([plain, streamed, json.loads(args)]))
`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(env.python, ["-c", code], { env: { PATH: process.env.PATH } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (c) => (c === 0 ? resolve(stdout) : reject(new Error(stderr))));
    });
    expect(JSON.parse(out)).toEqual(["hello mk", "hello mk", { q: "mk" }]);
  }, 120_000);
});
