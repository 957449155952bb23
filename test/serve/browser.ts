// Finding a Chromium for the browser test. Debian's `chromium` package (.ci/run installs it)
// or ENVELOPE_CHROMIUM. Without one the test is skipped with a loud message — except with
// CI=true, where that fails the run.
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

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


export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
}

export interface Watch {
  /** Requests to an origin not allowed: recorded, never sent. */
  external: string[];
  /** Script errors, console errors and warnings (CSP and Trusted Types violations among them). */
  problems: string[];
}

/**
 * A new context and a page in it opened at `url`, watched: a request to any origin but
 * `url`'s (and `allowed`) is aborted and recorded; any script error or console error or
 * warning is recorded, except Chromium's line for a 4xx answer the page asked for.
 */
export async function watchedPage(browser: Browser, url: string, watch: Watch, options: Parameters<Browser["newContext"]>[0] = {}, allowed: string[] = []): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const origins = new Set([new URL(url).origin, ...allowed.map((a) => new URL(a).origin)]);
  await context.route(
    (u) => !origins.has(u.origin),
    async (route) => {
      watch.external.push(route.request().url());
      await route.abort();
    },
  );
  const page = await context.newPage();
  page.on("pageerror", (e) => watch.problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if ((m.type() === "error" || m.type() === "warning") && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) watch.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  await page.goto(url);
  return { context, page };
}
