// The handoff page in a real browser (Debian's Chromium, driven by playwright-core), against
// a real server and the fake GitHub: paste, validate as you type, pick targets, open and copy
// files, download the zip (byte for byte the CLI's), create a repository. Any request to
// another origin, any script error and any CSP or Trusted Types violation fails the test.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { TARGETS } from "../../src/targets/index.js";
import { start, TOKEN, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract, expectRepositoryEquals } from "../github/helpers.js";
import { runCli } from "../helpers/cli.js";
import { browserGate } from "./browser.js";
import { EXAMPLE, EXAMPLE_PATH, serve, type Served } from "./helpers.js";

// The browser's globals, for the functions that run in the page (this project compiles
// without the DOM library; these are module-local declarations, not globals).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, navigator: any, window: any, localStorage: any, sessionStorage: any, DataTransfer: any, File: any;

const gate = browserGate();
const tmp = mkdtempSync(join(tmpdir(), "envelope-page-"));
const TEXT = EXAMPLE.toString("utf8");

async function cliZip(path: string, target: string): Promise<Buffer> {
  const zip = join(tmp, `cli-${target}-${Math.random().toString(36).slice(2)}.zip`);
  const r = await runCli(["export", path, "--target", target, "--zip", zip]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(zip);
}

describe.skipIf(!gate.run)("the handoff page in Chromium", () => {
  let s: Served;
  let gh: FakeGitHub;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const external: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    gh = await start();
    s = await serve({ workers: 2, githubApiUrl: gh.url, githubDelayScale: 0 });
    browser = await chromium.launch({ executablePath: gate.executablePath!, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
    context = await browser.newContext({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
    // Nothing may leave this origin: such a request is recorded and never sent.
    await context.route(
      (url) => url.origin !== new URL(s.url).origin,
      async (route) => {
        external.push(route.request().url());
        await route.abort();
      },
    );
    page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      // A 4xx answer the page asked for (a malformed definition) is logged by Chromium; anything else is a problem.
      if ((m.type() === "error" || m.type() === "warning") && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
    });
    await page.goto(`${s.url}/`);
    await page.locator("#targets input").first().waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await gh?.close();
  });

  const status = () => page.locator("#status");
  const openFile = async (path: string) => {
    await page.locator(`#tree button.file[data-path="${path}"]`).click();
    await expect.poll(() => page.locator("#file-path").textContent()).toContain(path);
  };
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  it("validates as you type, with messages that point at the line", async () => {
    await page.locator("#source").click();
    await page.keyboard.type('{\n  "name": "x",\n  "slug": "Not A Slug"\n}');
    await expect.poll(() => status().textContent()).toMatch(/^Invalid/);
    const slug = page.locator(".diag", { hasText: "E_PATTERN" });
    await expect.poll(() => slug.textContent()).toContain("Line 3, column 11");
    expect(await page.locator("#marks .mark.error").count()).toBeGreaterThan(0);
    await slug.click();
    const caret = await page.evaluate(() => {
      const t = document.getElementById("source");
      const before = t.value.slice(0, t.selectionStart);
      return { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") };
    });
    expect(caret).toEqual({ line: 3, column: 11 });
    // A syntax error while typing: the position is shown too.
    await page.keyboard.press("End");
    await page.keyboard.type(",");
    await expect.poll(() => page.locator(".diag").first().textContent()).toContain("E_JSON_SYNTAX");
    expect(await page.locator("#download").isDisabled()).toBe(true);
  });

  it("takes the support-tier example pasted from the clipboard: valid, team drawn, files and loss report shown", async () => {
    await page.evaluate((text) => navigator.clipboard.writeText(text), TEXT);
    await page.locator("#source").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("ControlOrMeta+V");
    await expect.poll(() => page.locator("#source").inputValue()).toBe(TEXT);
    await expect.poll(() => status().textContent()).toBe("Valid.");
    await expect.poll(() => page.locator("#diagram svg g.node.agent").count()).toBe(3);
    expect(await page.locator("#diagram svg text.title").allTextContents()).toEqual(["Support Lead", "Billing Specialist", "Technical Specialist"]);
    expect(await page.locator("#diagram svg path.edge.manages").count()).toBe(2);
    await expect.poll(() => page.locator("#tree button.file").count()).toBeGreaterThan(20);
    const cli = JSON.parse((await runCli(["export", EXAMPLE_PATH, "--target", "crewai", "--dry-run", "--json"])).stdout);
    // Registry data is no loss: counted apart, listed after what is approximated or not carried.
    type Entry = { status: string; registryOnly?: true; field: string };
    const entries: Entry[] = cli.loss.entries;
    const rest = entries.filter((e) => !e.registryOnly);
    const n = (status: string) => rest.filter((e) => e.status === status).length;
    const registry = entries.filter((e) => e.registryOnly).length;
    expect(registry).toBeGreaterThan(0);
    expect(await page.locator("#loss-summary").textContent()).toBe(
      `${n("carried")} carried, ${n("approximated")} approximated, ${n("dropped")} not carried. ${registry} registry-only fields (Envelope's listing data, which no runtime needs) are kept in the provenance copy only.`,
    );
    expect(await page.locator("#loss-body tr").count()).toBe(entries.length);
    expect(await page.locator("#loss-body .badge.registry").count()).toBe(registry);
    expect(await page.locator("#loss-body .badge.dropped").count()).toBe(n("dropped"));
    const rows = await page.locator("#loss-body tr").evaluateAll((trs) => trs.map((tr) => tr.className));
    expect(rows.slice(0, n("approximated") + n("dropped")).every((c) => c === "approximated" || c === "dropped")).toBe(true);
    // The real package directory, and code spans as code, not backticks.
    const details = (await page.locator("#loss-body").textContent())!;
    expect(details).toContain("src/support_tier/envelope.json");
    expect(details).not.toContain("<package>");
    expect(details).not.toContain("`");
  });

  it("asks once per pause (the export answers validity too); Strict refuses a lossy target and shows why", async () => {
    const asked: string[] = [];
    const record = (r: { url(): string; method(): string }) => {
      if (new URL(r.url()).pathname.startsWith("/v1/")) asked.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    };
    page.on("request", record);
    try {
      const edited = TEXT.replace('"description": "', '"description": "Edited. ');
      expect(edited).not.toBe(TEXT);
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/v1/"));
      await page.locator("#source").fill(edited);
      await answered;
      await expect.poll(() => status().textContent()).toBe("Valid.");
      await expect.poll(() => page.locator("#tree button.file").count()).toBeGreaterThan(20);
      expect(asked).toEqual(["POST /v1/exports?target=crewai"]);

      await page.locator("#strict").check();
      // What Strict refuses is named first, in plain words, before the loss report.
      await expect.poll(() => status().textContent()).toMatch(/^Strict stops the export: 1 field would not be fully carried to CrewAI: agents\[0\]\.accessPolicy\. /);
      expect(await page.locator("#strict-refusal").isVisible()).toBe(true);
      expect(await page.locator("#strict-refusal li").allTextContents()).toEqual([expect.stringMatching(/^agents\[0\]\.accessPolicy \(approximated\): /)]);
      expect(await page.locator("#loss-body tr").count()).toBeGreaterThan(0);
      expect(await page.locator("#download").isDisabled()).toBe(true);
      // The definition itself is fine: the problems list must not say otherwise, nor "No problems." alone.
      await expect.poll(() => page.locator("#diagnostics").textContent()).toMatch(/^The definition has no problems; Strict stops the export/);
      // LangGraph carries the example whole (registry data is never fatal): strict passes.
      await page.locator("#target-langgraph").check();
      await expect.poll(() => status().textContent()).toBe("Valid.");
      expect(await page.locator("#download").isDisabled()).toBe(false);
      await page.locator("#target-crewai").check();
      await expect.poll(() => status().textContent()).toMatch(/^Strict stops the export/);
      await page.locator("#strict").uncheck();
      await expect.poll(() => status().textContent()).toBe("Valid.");
      expect(asked.every((a) => a.startsWith("POST /v1/exports?"))).toBe(true);
    } finally {
      page.off("request", record);
    }
    const again = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/v1/"));
    await page.locator("#source").fill(TEXT);
    await again;
    await expect.poll(() => page.locator("#project-summary").textContent()).toMatch(/^Support Tier 1\.0\.0 → CrewAI/);
    // Prism marks Markdown code spans with the class "code": they must not take the viewer's box style.
    await openFile("README.md");
    await page.locator("#view-source").click();
    const spans = page.locator("#code .token.code");
    expect(await spans.count()).toBeGreaterThan(0);
    expect(await spans.first().evaluate((e) => window.getComputedStyle(e).paddingTop)).toBe("0px");
  });

  it("each target: its files; a file opens highlighted, and copy puts exactly its text on the clipboard", async () => {
    for (const target of ["langgraph", "crewai"]) {
      await page.locator(`#target-${target}`).check();
      const files = exportDefinition(EXAMPLE, TARGETS[target]!).files!;
      await expect.poll(() => page.locator("#tree button.file").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-path")).sort())).toEqual(files.paths().sort());
      const path = target === "crewai" ? "src/support_tier/crew.py" : "src/support_tier/graph.py";
      await openFile(path);
      expect(await page.locator("#code").textContent()).toBe(files.text(path));
      expect(await page.locator("#code .token.keyword").count()).toBeGreaterThan(3);
      await page.locator("#copy-file").click();
      await expect.poll(clipboard).toBe(files.text(path));
      // The copy button beside the file in the tree does the same for its own file.
      await page.locator(`#tree button.copy[aria-label="Copy pyproject.toml"]`).click();
      await expect.poll(clipboard).toBe(files.text("pyproject.toml"));
    }
    await page.locator("#copy-all").click();
    const all = await clipboard();
    const crew = exportDefinition(EXAMPLE, TARGETS.crewai!).files!;
    for (const path of crew.paths()) expect(all).toContain(`==> ${path} <==\n${crew.text(path)}`);
  });

  it("downloads the zip, byte for byte what `envelope export --zip` writes, for each target", async () => {
    for (const target of ["crewai", "langgraph"]) {
      await page.locator(`#target-${target}`).check();
      await expect.poll(() => page.locator("#project-summary").textContent()).toContain(TARGETS[target]!.title);
      const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#download").click()]);
      expect(download.suggestedFilename()).toBe(`support-tier-${target}.zip`);
      const bytes = readFileSync((await download.path())!);
      expect(Buffer.compare(bytes, await cliZip(EXAMPLE_PATH, target)), `${target}: the downloaded zip differs from the CLI's`).toBe(0);
    }
  });

  it("creates the GitHub repository (the fake GitHub) holding the CLI's export", async () => {
    await page.locator("#target-crewai").check();
    await expect.poll(() => page.locator("#project-summary").textContent()).toContain("CrewAI");
    await page.locator("#gh-token").fill(TOKEN);
    await page.locator("#gh-repo").fill("me/support-tier-from-page");
    await page.locator("#gh-private").check();
    await page.locator("#gh-create").click();
    const link = page.locator("#gh-result a");
    await link.waitFor();
    expect(await link.textContent()).toBe("me/support-tier-from-page");
    expect(await link.getAttribute("href")).toMatch(/\/me\/support-tier-from-page$/);
    expectRepositoryEquals(gh, "me", "support-tier-from-page", exportDefinition(EXAMPLE, TARGETS.crewai!).files!);
    expectCleanContract(gh);
    expect(gh.requests.find((r) => r.operationId === "repos/create-for-authenticated-user")?.body).toMatchObject({ private: true });
    // After a success the button does not invite a second create of the same repository…
    expect(await page.locator("#gh-create").isDisabled()).toBe(true);
    expect(await page.locator("#gh-create").textContent()).toBe("Repository created");
    // …until the name is typed again. A taken name: the answer's free names are offered as buttons.
    await page.locator("#gh-repo").fill("me/support-tier-from-pag");
    await page.locator("#gh-repo").press("e");
    await expect.poll(() => page.locator("#gh-create").isEnabled()).toBe(true);
    await page.locator("#gh-create").click();
    await page.locator("#gh-result .bad").waitFor();
    expect(await page.locator("#gh-result").textContent()).toContain("already exists");
    await page.locator("#gh-result button").first().click();
    expect(await page.locator("#gh-repo").inputValue()).toMatch(/^me\/support-tier-from-page-?\w+/);
    // The token stays in the page: not in storage, not in the server's log.
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toContain(TOKEN);
    expect(s.logText()).not.toContain(TOKEN);
  });

  it("opens a file with the picker and by drop, and sends its bytes as they are (CRLF kept)", async () => {
    const crlf = join(tmp, "crlf.envelope.json");
    writeFileSync(crlf, TEXT.replace(/\n/g, "\r\n"));
    await page.locator("#file").setInputFiles(crlf);
    await expect.poll(() => status().textContent()).toBe("Valid.");
    await page.locator("#target-crewai").check();
    await expect.poll(() => page.locator("#tree button.file").count()).toBeGreaterThan(20);
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#download").click()]);
    expect(Buffer.compare(readFileSync((await download.path())!), await cliZip(crlf, "crewai")), "the CRLF file's zip differs from the CLI's").toBe(0);
    // Drop a file on the editor.
    await page.locator("#clear").click();
    await expect.poll(() => page.locator("#tree button.file").count()).toBe(0);
    const data = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "dropped.envelope.json", { type: "application/json" }));
      return dt;
    }, TEXT);
    await page.locator("#drop").dispatchEvent("drop", { dataTransfer: data });
    await expect.poll(() => status().textContent()).toBe("Valid.");
    expect(await page.locator("#source").inputValue()).toBe(TEXT);
  });

  it("is keyboard operable: targets with arrow keys, files with Tab and Enter; every control is named", async () => {
    await page.locator("#target-crewai").check();
    await page.locator("#target-crewai").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.locator("#target-langgraph").isChecked()).toBe(true);
    await expect.poll(() => page.locator("#project-summary").textContent()).toContain("LangGraph");
    await page.locator("#copy-all").focus();
    let reached = "";
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => (document.activeElement?.classList.contains("file") ? (document.activeElement.getAttribute("data-path") ?? "") : ""));
    }
    expect(reached).not.toBe("");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#file-path").textContent()).toContain(reached);
    const unnamed = await page.evaluate(() =>
      Array.from(document.querySelectorAll("button, input:not([type=file]), textarea, [tabindex='0']") as ArrayLike<any>)
        .filter((e: any) => {
          const name = e.getAttribute("aria-label") || e.labels?.[0]?.textContent || e.textContent;
          return !name || !name.trim();
        })
        .map((e: any) => e.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
  });

  it("shows hostile text as text: no markup, no script, no request", async () => {
    const def = JSON.parse(TEXT);
    def.name = '<img src="https://evil.example/x.png" onerror="window.__pwned=1">';
    def.description = "<script>window.__pwned=2</script> &amp; </textarea><b>bold</b>";
    def.agents[0].name = "</text><script>window.__pwned=3</script>";
    def.agents[0].title = '"><svg onload="window.__pwned=4">';
    const text = JSON.stringify(def, null, 2);
    await page.locator("#source").fill(text);
    await expect.poll(() => status().textContent()).toBe("Valid.");
    await expect.poll(() => page.locator("#project-summary").textContent()).toContain(def.name);
    await openFile("src/support_tier/envelope.json");
    expect(await page.locator("#code").textContent()).toBe(text);
    expect(await page.locator("#diagram svg text.title").first().textContent()).toBe("</text><script>window.__pwn…");
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.locator("img, main script, #diagram svg svg, b").count()).toBe(0);
    // The policy is in force: an HTML sink given a string throws (and Chromium reports it).
    const before = problems.length;
    const sink = await page.evaluate(() => {
      try {
        document.createElement("div").innerHTML = "<b>x</b>";
        return "parsed";
      } catch (e) {
        return (e as Error).name;
      }
    });
    expect(sink).toBe("TypeError");
    await expect.poll(() => problems.slice(before).join("\n")).toMatch(/TrustedHTML/);
    problems.splice(before);
  });

  it("made no request to another origin, and had no script error or policy violation", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
