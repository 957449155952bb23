// `envelope serve [--port 8787] [--host 127.0.0.1] [--workers N]`: the HTTP API and the
// handoff page (src/serve/). Prints the URL on standard output once it is ready; logs one
// JSON line per request on standard error. SIGINT or SIGTERM stops it gracefully: no new
// requests, those in flight finish (up to 10 s), then the workers stop and it exits 0.
import { createServer } from "../serve/server.js";
import { resolveSettings, SettingsError, type SettingsOverrides } from "../serve/settings.js";
import { EXIT, UsageError, type Io } from "./main.js";

export async function runServe(opts: SettingsOverrides, io: Io): Promise<number> {
  let settings;
  let server;
  try {
    settings = resolveSettings(io.env, opts);
    server = await createServer(settings, { logStream: io.stderr });
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(e.message);
    throw e;
  }
  let url: string;
  try {
    url = await server.listen();
  } catch (e) {
    await server.close();
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "EADDRINUSE" ? `port ${settings.port} is in use (choose another with --port)` : code === "EACCES" ? `no permission to listen on port ${settings.port}` : (e as Error).message;
    io.stderr.write(`envelope: cannot serve on ${settings.host}:${settings.port}: ${why}\n`);
    return EXIT.usage;
  }
  const shown = url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://[::1]:");
  io.stdout.write(`envelope ${settings.workers ? `(${settings.workers} worker${settings.workers === 1 ? "" : "s"}) ` : ""}serving on ${shown} — press Ctrl+C to stop\n`);
  await new Promise<void>((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  io.stderr.write("envelope: shutting down (finishing requests in flight)\n");
  await server.close();
  return EXIT.ok;
}
