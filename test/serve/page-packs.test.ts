// Connection packs on the handoff page, in a real browser (Debian's Chromium, playwright-core):
// a definition opened, packs added with the file and folder pickers, listed with a remove
// button each; a refused pack's problem shown with its file (and never a line of it that holds
// the credential); the export then carries the pack's tools, and the downloaded zip is the
// CLI's `--connections` zip byte for byte. Any request to another origin, any script error and
// any CSP or Trusted Types violation fails the test.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";
import { browserGate, launchChromium, watchedPage } from "./browser.js";
import { serve, type Served } from "./helpers.js";

const gate = browserGate();
const FIXTURES = join(ROOT, "test/fixtures/connections");
const TEAM = join(FIXTURES, "helpdesk-triage.envelope.json");
const tmp = mkdtempSync(join(tmpdir(), "envelope-page-packs-"));

describe.skipIf(!gate.run)("connection packs on the handoff page", () => {
  let s: Served;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  const problems: string[] = [];
  const sent: Array<{ type: string; body: string }> = [];

  beforeAll(async () => {
    s = await serve({ workers: 1 });
    browser = await launchChromium(gate.executablePath!);
    ({ page } = await watchedPage(browser, `${s.url}/`, { external, problems }, { acceptDownloads: true, viewport: { width: 1366, height: 768 } }));
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/v1/exports") sent.push({ type: r.headers()["content-type"] ?? "", body: r.postData() ?? "" });
    });
    await page.locator("#targets input").first().waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const status = () => page.locator("#status");
  const listed = () => page.locator("#packs li .pack-path").allTextContents();

  it("a pack with credential material is refused with its file, pointer and line, never a line of it; removing it makes the definition valid again", async () => {
    await page.locator("#file").setInputFiles(TEAM);
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toMatch(/^Ready to hand over/);
    const leaky = readFileSync(join(FIXTURES, "helpdesk/pack.json"), "utf8").replace('"auth": { "kind": "api_key" }', '"auth": { "kind": "api_key", "apiKey": "sk-live-never-shown" }');
    await page.locator("#packs-files").setInputFiles([{ name: "pack.json", mimeType: "application/json", buffer: Buffer.from(leaky) }]);
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toBe("Refused: 1 error in the connection packs.");
    expect(await listed()).toEqual(["pack.json"]);
    const diag = page.locator('.diag[data-file="pack.json"]');
    expect(await diag.textContent()).toMatch(/^pack\.json, line 10, column \d+ · error E_PACK_CREDENTIAL/);
    expect(await diag.textContent()).toContain("at /provider/auth/apiKey");
    expect(await page.locator("#diagnostics").textContent()).not.toContain("sk-live");
    // The editor's marks are the definition's only.
    expect(await page.locator("#marks .mark").count()).toBe(0);
    expect(await page.locator("#download").isDisabled()).toBe(true);
    const last = sent.at(-1)!;
    expect(last.type).toBe("application/vnd.envelope.request+json");
    expect(JSON.parse(last.body).connections.map((f: { path: string }) => f.path)).toEqual(["pack.json"]);
    await page.locator("#packs button", { hasText: "Remove" }).click();
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toMatch(/^Ready to hand over/);
    expect(await listed()).toEqual([]);
    expect(await page.locator("#connection-row").isHidden()).toBe(true);
    expect(await page.locator("#packs-add").evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
    // Without packs, the plain definition goes as before.
    expect(sent.at(-1)!.type).toBe("application/json");
  });

  it("a folder of packs: a file that is no pack is said and removed; the project gets the pack's tools; the zip is the CLI's", async () => {
    await page.locator("#target-crewai").check();
    // The fixtures folder holds the team definition too: it is no pack, and the page says so.
    await page.locator("#packs-folder").setInputFiles(FIXTURES);
    await expect.poll(() => listed()).toEqual(["connections/docs-search/pack.json", "connections/helpdesk/openapi.json", "connections/helpdesk/pack.json", "connections/helpdesk-triage.envelope.json"].sort());
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toBe("Refused: 1 error in the connection packs.");
    expect(await page.locator(".diag", { hasText: "E_PACK_UNUSED" }).textContent()).toContain("connections/helpdesk-triage.envelope.json");
    await page.getByRole("button", { name: "Remove connections/helpdesk-triage.envelope.json" }).click();
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toMatch(/^Ready to hand over/);
    expect(await listed()).toHaveLength(3);
    await expect.poll(() => page.locator("#tree button.file[data-path$='/team.py']").count()).toBe(1);
    const team = await page.locator("#tree button.file[data-path$='/team.py']").getAttribute("data-path");
    await page.locator(`#tree button.file[data-path="${team}"]`).click();
    await expect.poll(() => page.locator("#code").textContent()).toContain('"triager": ("docs-search", "helpdesk")');
    // Giving a pack to an agent by name (like --connection): sent with the packs, and an unknown agent is said.
    await page.locator("#connection").fill("nobody=helpdesk");
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toBe("Refused: 1 error in the connection packs.");
    expect(await page.locator('.diag[data-file="connection"]').textContent()).toContain("E_CONNECTION_UNKNOWN");
    await page.locator("#connection").fill("triager=docs-search");
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toMatch(/^Ready to hand over/);
    expect(JSON.parse(sent.at(-1)!.body).connection).toEqual(["triager=docs-search"]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#download").click()]);
    const zip = join(tmp, "cli.zip");
    const cli = await runCli(["export", TEAM, "--target", "crewai", "--zip", zip, "--connections", FIXTURES, "--connection", "triager=docs-search"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(Buffer.compare(readFileSync((await download.path())!), readFileSync(zip)), "the page's zip differs from the CLI's --connections zip").toBe(0);
  });

  it("nothing went to another origin, and no script error or CSP violation happened", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
