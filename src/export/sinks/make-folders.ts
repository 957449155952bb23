// `mkdir -p` for the sinks' parent folders. Node's own recursive mkdir spins forever under a
// folder that refuses new entries with ENOENT (`/proc/self/x/y`: it retries the parent it just
// found), so the missing folders are found by walking up, then made one at a time; any error
// is the first mkdir's own (ENOENT, ENOTDIR, EACCES…), for the caller to put in words.
import { lstat, mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";

export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; ) {
    const found = await lstat(at).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return false;
        throw e;
      },
    );
    if (found) break;
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "EEXIST") throw e; // made meanwhile: fine
    });
  }
}
