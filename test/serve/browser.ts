// Finding a Chromium for the browser test. Debian's `chromium` package (.ci/run installs it)
// or ENVELOPE_CHROMIUM. Without one the test is skipped with a loud message — except with
// CI=true, where that fails the run.
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"];

export function browserGate(): { run: boolean; executablePath?: string } {
  const given = process.env.ENVELOPE_CHROMIUM;
  const found = given ? (existsSync(given) ? given : undefined) : CANDIDATES.find((p) => existsSync(p));
  if (found) return { run: true, executablePath: found };
  const reason = given ? `ENVELOPE_CHROMIUM=${given} does not exist` : `no Chromium at ${CANDIDATES.join(", ")} (apt-get install chromium, or set ENVELOPE_CHROMIUM)`;
  const message = `\n!!! browser tests of the handoff page SKIPPED: ${reason}\n`;
  if (process.env.CI === "true") throw new Error(message + "CI=true: refusing to skip.");
  process.stderr.write(message);
  return { run: false };
}
