// envelope-runtime-js: what a LangGraph.js project exported from an Envelope team needs beside
// its framework. The team's own modules (src/team.ts, state.ts, context.ts, graph.ts) hold
// the team; everything generic is here, versioned and tested once.
export * from "./spec.js";
export * from "./placeholders.js";
export * from "./model-env.js";
export * from "./redaction.js";
export * from "./policy.js";
export * as gates from "./gates.js";
export * from "./models.js";
export * from "./http-tool.js";
export * from "./connections.js";
export * from "./graph.js";
export * from "./checkpoint.js";
export * from "./cli.js";
export * from "./workspace.js";
export * from "./workspace-store.js";
export * from "./run-context.js";
// The Agent Server's http.app (a team's src/server.ts): command.resume cleaned before it is stored.
export const VERSION = "0.1.0";
