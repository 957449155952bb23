// A module hook for vitest's test workers. Vitest 3 creates a worker's RPC to the main
// process with birpc's fixed 60 s timeout (no option reaches it: createRuntimeRpc in its
// dist/chunks/rpc.*.js). A test that blocks its worker's event loop for a minute — a
// synchronous install or a project's test suite run with spawnSync, slow on a loaded
// 2-core machine — leaves the main process's answer to the pending onTaskUpdate unread, and
// Node runs expired timers before it reads input: "Timeout calling onTaskUpdate", and a run
// whose every test passed exits 1. Vitest 4 turns that timeout off (vitest-dev/vitest#8297,
// `timeout: -1`); this does the same for 3.2. A hung main process is still caught: the
// worker then loses its IPC channel, and every test keeps its own timeout.
const CREATE = "const rpc = createSafeRpc(createBirpc({ onCancel: setCancel }, {";

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!/\/node_modules\/vitest\/dist\/chunks\/rpc\.[^/]*\.js$/.test(url)) return result;
  const source = typeof result.source === "string" ? result.source : new TextDecoder().decode(result.source);
  if (!source.includes(CREATE)) {
    // Loud, so a vitest update that moved this is looked at (vitest 4 needs no patch).
    throw new Error(`test/helpers/worker-rpc-hooks.mjs: ${url} no longer creates the worker's RPC as vitest 3.2 does; remove this hook if the installed vitest has no 60 s RPC timeout`);
  }
  return { ...result, source: source.replace(CREATE, `${CREATE}\n\t\ttimeout: -1,`) };
}
