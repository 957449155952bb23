// The handoff page in a real browser (Debian's Chromium, driven by playwright-core), against
// a real server and the fake GitHub: paste, validate as you type, pick targets, open and copy
// files, download the zip (byte for byte the CLI's), create a repository. Any request to
// another origin, any script error and any CSP or Trusted Types violation fails the test.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { TARGETS } from "../../src/targets/index.js";
import { start, TOKEN, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract, expectRepositoryEquals } from "../github/helpers.js";
import { runCli } from "../helpers/cli.js";
import { browserGate, launchChromium, watchedPage } from "./browser.js";
import { EXAMPLE, EXAMPLE_PATH, post, serve, type Served } from "./helpers.js";

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
  let page: Page;
  const external: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    gh = await start({ existing: ["me/taken"] });
    s = await serve({ workers: 2, githubApiUrl: gh.url, githubDelayScale: 0 });
    browser = await launchChromium(gate.executablePath!);
    ({ page } = await openPage({ viewport: { width: 1366, height: 768 } }));
  }, 60_000);

  /** A new browser context and the page in it, watched like every other: no other origin, no error. */
  async function openPage(options: Parameters<Browser["newContext"]>[0]): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await watchedPage(browser, `${s.url}/`, { external, problems }, { acceptDownloads: true, ...options });
    await opened.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
    await opened.page.locator("#targets input").first().waitFor();
    return opened;
  }

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
    // The code is in the card's details for the developer; the place is on the card itself.
    const slug = page.locator("#diagnostics li", { hasText: "E_PATTERN" }).locator(".diag");
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
    await expect.poll(() => page.locator("#diagnostics li").first().textContent()).toContain("E_JSON_SYNTAX");
    expect(await page.locator("#download").isDisabled()).toBe(true);
  });

  it("takes the support-tier example pasted from the clipboard: valid, team drawn, files and loss report shown", async () => {
    await page.evaluate((text) => navigator.clipboard.writeText(text), TEXT);
    await page.locator("#source").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("ControlOrMeta+V");
    await expect.poll(() => page.locator("#source").inputValue()).toBe(TEXT);
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
    await expect.poll(() => page.locator("#diagram svg g.node.agent").count()).toBe(3);
    expect(await page.locator("#diagram svg text.title").allTextContents()).toEqual(["Support Lead", "Billing Specialist", "Technical Specialist"]);
    expect(await page.locator("#diagram svg path.edge.manages").count()).toBe(2);
    await expect.poll(() => page.locator("#tree button.file").count()).toBeGreaterThan(20);
    const cli = JSON.parse((await runCli(["export", EXAMPLE_PATH, "--target", "crewai", "--dry-run", "--json"])).stdout);
    // Registry data is not carried, counted as the CLI counts it, and said to be only listing data;
    // listed after what is approximated or not carried.
    type Entry = { status: string; registryOnly?: true; field: string };
    const entries: Entry[] = cli.loss.entries;
    const rest = entries.filter((e) => !e.registryOnly);
    const n = (status: string) => rest.filter((e) => e.status === status).length;
    const registry = entries.filter((e) => e.registryOnly).length;
    expect(registry).toBeGreaterThan(0);
    expect(await page.locator("#loss-summary").textContent()).toBe(
      `${cli.loss.counts.carried} carried, ${cli.loss.counts.approximated} approximated, ${cli.loss.counts.dropped} not carried (${registry} of them registry-only).`,
    );
    // What each word means, and that registry-only is no loss, on the line under the counts.
    expect(await page.locator("#loss-words").textContent()).toContain("they are counted as not carried, yet nothing is lost");
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
      await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
      await expect.poll(() => page.locator("#tree button.file").count()).toBeGreaterThan(20);
      expect(asked).toEqual(["POST /v1/exports?target=crewai"]);

      await page.locator("#strict").check();
      // What Strict refuses is named first, in plain words, before the loss report.
      await expect.poll(() => status().textContent()).toMatch(/^Strict stops the export: Support Lead's access policy \(the web addresses it may reach\) would work only in part in CrewAI\. /);
      expect(await page.locator("#strict-refusal").isVisible()).toBe(true);
      expect(await page.locator("#strict-refusal > ul li").allTextContents()).toEqual([expect.stringMatching(/^Support Lead's access policy .* would work only in part\.$/)]);
      // The precise terms, for the developer, one click away.
      expect(await page.locator("#strict-refusal details.dev li").allTextContents()).toEqual([expect.stringMatching(/^agents\[0\]\.accessPolicy \(approximated\): /)]);
      expect(await page.locator("#steps li[aria-current=step]").getAttribute("data-step")).toBe("target");
      expect(await page.locator("#loss-body tr").count()).toBeGreaterThan(0);
      expect(await page.locator("#download").isDisabled()).toBe(true);
      // The definition itself is fine: the problems list must not say otherwise, nor "No problems." alone.
      await expect.poll(() => page.locator("#diagnostics").textContent()).toMatch(/^The definition has no problems\. Strict stops the export/);
      // LangGraph carries the example whole (registry data is never fatal): strict passes.
      await page.locator("#target-langgraph").check();
      await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
      expect(await page.locator("#download").isDisabled()).toBe(false);
      await page.locator("#target-crewai").check();
      await expect.poll(() => status().textContent()).toMatch(/^Strict stops the export/);
      await page.locator("#strict").uncheck();
      await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
      expect(asked.every((a) => a.startsWith("POST /v1/exports?"))).toBe(true);
    } finally {
      page.off("request", record);
    }
    // The answer to this text: Strict's refusal had the other targets checked too (one
    // request each), and one of those may still be answered after the fill.
    const again = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/v1/") && r.request().postData() === TEXT);
    await page.locator("#source").fill(TEXT);
    await again;
    await expect.poll(() => page.locator("#project-summary").textContent()).toMatch(/^Support Tier 1\.0\.0 → CrewAI/);
    // Prism marks Markdown code spans with the class "code": they must not take the viewer's box style.
    await openFile("README.md");
    await page.locator("#view-source").click();
    // The README of this text, not the edited one's (the page renders once the answer is read).
    await expect.poll(() => page.locator("#code").textContent()).not.toContain("Edited. ");
    const spans = page.locator("#code .token.code");
    expect(await spans.count()).toBeGreaterThan(0);
    expect(await spans.first().evaluate((e) => window.getComputedStyle(e).paddingTop)).toBe("0px");
  });

  it("each target: its files; a file opens highlighted, and copy puts exactly its text on the clipboard", async () => {
    for (const target of ["langgraph", "crewai"]) {
      await page.locator(`#target-${target}`).check();
      const files = exportDefinition(EXAMPLE, TARGETS[target]!).files!;
      // A target's preview is about a megabyte with uv.lock (issue 39): on a loaded machine its
      // answer can take longer than the default second.
      await expect.poll(() => page.locator("#tree button.file").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-path")).sort()), { timeout: 15_000 }).toEqual(files.paths().sort());
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
    // The preview leaves out what would take its answer past the size bound (answer-bound.ts;
    // for the example's CrewAI export, uv.lock, its largest file): such a file is shown as left
    // out, is not in Copy all, and the status line says so.
    const preview = await post(s, "/v1/exports?target=crewai", EXAMPLE, { accept: "application/json" });
    const left: string[] = preview.json.files.filter((f: { encoding: string }) => f.encoding !== "utf-8").map((f: { path: string }) => f.path);
    expect([...left].sort()).toEqual(["uv.lock"]);
    for (const path of crew.paths()) {
      if (left.includes(path)) expect(all).not.toContain(`==> ${path} <==`);
      else expect(all).toContain(`==> ${path} <==\n${crew.text(path)}`);
    }
    expect(await status().textContent()).toBe(`Copied ${crew.paths().length - left.length} of ${crew.paths().length} files; left out, in the zip only: ${left.join(", ")}.`);
    await openFile("uv.lock");
    expect(await page.locator("#code").textContent()).toMatch(/^\(.+, too large to show with this definition's preview; it is in the zip\)$/);
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
    const link = page.locator("#gh-result a").first();
    await link.waitFor();
    expect(await link.textContent()).toBe("me/support-tier-from-page");
    expect(await link.getAttribute("href")).toMatch(/\/me\/support-tier-from-page$/);
    expectRepositoryEquals(gh, "me", "support-tier-from-page", exportDefinition(EXAMPLE, TARGETS.crewai!).files!);
    expectCleanContract(gh);
    expect(gh.requests.find((r) => r.operationId === "repos/create-for-authenticated-user")?.body).toMatchObject({ private: true });
    // After a success the button does not invite a second create of the same repository…
    expect(await page.locator("#gh-create").isDisabled()).toBe(true);
    expect(await page.locator("#gh-create-state").textContent()).toMatch(/^Repository created\./);
    // …until the name is typed again. The same export to the same name: it is there already.
    await page.locator("#gh-repo").fill("me/support-tier-from-pag");
    await page.locator("#gh-repo").press("e");
    await expect.poll(() => page.locator("#gh-create").isEnabled()).toBe(true);
    await page.locator("#gh-create").click();
    await page.locator("#gh-result .ok", { hasText: "already holds this export" }).waitFor();
    expect(await page.locator("#gh-result .ok a").getAttribute("href")).toBe(`${gh.url}/me/support-tier-from-page`);
    expect(await page.locator("#gh-create-state").textContent()).toMatch(/^Already up to date\./);
    // A name taken by a repository no export made: the answer's free names, as buttons; no update offered.
    await page.locator("#gh-repo").fill("me/taken");
    await page.locator("#gh-create").click();
    await page.locator("#gh-result .bad").waitFor();
    expect(await page.locator("#gh-result").textContent()).toContain("already exists");
    expect(await status().textContent()).toBe("me/taken already exists: choose another name.");
    expect(await page.locator("#gh-result button", { hasText: /^Update / }).count()).toBe(0);
    // Sending the same name again would repeat the answer: the button waits for another name.
    expect(await page.locator("#gh-create").isDisabled()).toBe(true);
    await page.locator("#gh-result button", { hasText: /^me\/taken-?\w+$/ }).first().click();
    expect(await page.locator("#gh-repo").inputValue()).toMatch(/^me\/taken-?\w+/);
    expect(await page.locator("#gh-create").isEnabled()).toBe(true);
    // The token stays in the page: not in storage, not in the server's log.
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toContain(TOKEN);
    expect(s.logText()).not.toContain(TOKEN);
  });

  it("opens a file with the picker and by drop, and sends its bytes as they are (CRLF kept)", async () => {
    const crlf = join(tmp, "crlf.envelope.json");
    writeFileSync(crlf, TEXT.replace(/\n/g, "\r\n"));
    await page.locator("#file").setInputFiles(crlf);
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
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
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
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

  it("a definition with more problems than an answer lists: the first 200, and how many more", async () => {
    const def = JSON.parse(TEXT);
    // 260 agents whose keys each break the key pattern in their own way: 260 distinct errors.
    def.agents = Array.from({ length: 260 }, (_, i) => ({ key: `Bad Key ${i}`, name: `A${i}`, title: "T", role: "specialist" }));
    await page.locator("#source").fill(JSON.stringify(def, null, 2));
    await expect.poll(() => status().textContent(), { timeout: 10_000 }).toMatch(/^Invalid/);
    expect(await page.locator(".diag").count()).toBe(200);
    expect(await page.locator("#problem-count").textContent()).toMatch(/and \d+ more\)$/);
    expect(await page.locator("#diagnostics li").last().textContent()).toMatch(/^…and \d+ more problems not listed/);
  });

  it("shows hostile text as text: no markup, no script, no request", async () => {
    const def = JSON.parse(TEXT);
    def.name = '<img src="https://evil.example/x.png" onerror="window.__pwned=1">';
    def.description = "<script>window.__pwned=2</script> &amp; </textarea><b>bold</b>";
    def.agents[0].name = "</text><script>window.__pwned=3</script>";
    def.agents[0].title = '"><svg onload="window.__pwned=4">';
    const text = JSON.stringify(def, null, 2);
    await page.locator("#source").fill(text);
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
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

  // Issue 16: a page a non-technical builder can use, at desktop width and at a phone's.

  /** The server's own list of an invalid definition's problems. */
  const problemsOf = async (text: string) => {
    const res = await fetch(`${s.url}/v1/exports?target=crewai`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: text });
    return ((await res.json()) as { diagnostics: Array<{ code: string; severity: string; line: number; column: number }> }).diagnostics;
  };
  const INVALID = '{\n  "name": "x",\n  "slug": "Not A Slug",\n  "agents": [{ "key": "Bad Key", "name": "A very long agent name that goes on and on without end" }]\n}';
  const caretOf = (p: Page) =>
    p.evaluate(() => {
      const t = document.getElementById("source");
      const before = t.value.slice(0, t.selectionStart);
      return { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") };
    });
  const steps = (p: Page) => p.locator("#steps li").evaluateAll((lis) => lis.map((li) => `${li.getAttribute("data-step")}:${li.getAttribute("data-state")}`));
  /** The diagram's drawing lies inside its box, and the box inside the page's width. */
  const expectDiagramFits = async (p: Page, width: number) => {
    const box = (await p.locator("#diagram").boundingBox())!;
    const drawing = (await p.locator("#diagram > svg").boundingBox())!;
    expect(await p.locator("#diagram > svg").getAttribute("viewBox")).toMatch(/^0 0 \d+(\.\d+)? \d+(\.\d+)?$/);
    expect(drawing.x).toBeGreaterThanOrEqual(box.x - 0.5);
    expect(drawing.y).toBeGreaterThanOrEqual(box.y - 0.5);
    expect(drawing.x + drawing.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    expect(drawing.y + drawing.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  };
  const scrollWidth = (p: Page) => p.evaluate(() => document.scrollingElement.scrollWidth);

  describe("at a phone's width (390×844)", () => {
    let phone: Page;
    beforeAll(async () => {
      ({ page: phone } = await openPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }));
    }, 60_000);

    it("an invalid definition shows all its problems within the width, and tapping one selects its place in the editor", async () => {
      // Listed errors first (each group in the server's order).
      const given = await problemsOf(INVALID);
      const expected = [...given.filter((d) => d.severity === "error"), ...given.filter((d) => d.severity !== "error")];
      expect(expected.length).toBeGreaterThan(3);
      await phone.locator("#source").fill(INVALID);
      await expect.poll(() => phone.locator("#status").textContent()).toMatch(/^Invalid/);
      const diags = phone.locator("#diagnostics .diag");
      await expect.poll(() => diags.count()).toBe(expected.length);
      expect(await diags.evaluateAll((bs) => bs.map((b) => b.closest("li").querySelector(".code-name").textContent))).toEqual(expected.map((d) => d.code));
      expect(await scrollWidth(phone)).toBeLessThanOrEqual(390);
      for (let i = 0; i < expected.length; i++) {
        const d = diags.nth(i);
        await d.scrollIntoViewIfNeeded();
        expect(await d.isVisible()).toBe(true);
        const b = (await d.boundingBox())!;
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width, `problem ${i} is wider than the screen`).toBeLessThanOrEqual(390);
        // Nothing in it is cut off either: its text fits its own box.
        expect(await d.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      }
      // Tap each problem with a place: the caret goes there, and the editor is on screen.
      for (let i = 0; i < expected.length; i++) {
        if (expected[i]!.line < 1) continue;
        await diags.nth(i).scrollIntoViewIfNeeded();
        await diags.nth(i).tap();
        expect(await caretOf(phone)).toEqual({ line: expected[i]!.line, column: expected[i]!.column });
        expect(await phone.evaluate(() => document.activeElement.id)).toBe("source");
        const editor = (await phone.locator("#source").boundingBox())!;
        expect(editor.y + editor.height).toBeGreaterThan(0);
        expect(editor.y).toBeLessThan(844);
      }
      // The problems list does not spill over the next panel.
      const def = (await phone.locator("section.definition").boundingBox())!;
      const list = (await phone.locator("#diagnostics").boundingBox())!;
      const project = (await phone.locator("#project").boundingBox())!;
      expect(list.y + list.height).toBeLessThanOrEqual(def.y + def.height);
      expect(def.y + def.height).toBeLessThanOrEqual(project.y);
    });

    it("the example: no horizontal scroll, every control on screen and tappable, the diagram fits, the zip hand-over says what to send", async () => {
      await phone.locator("#example").tap();
      await expect.poll(() => phone.locator("#status").textContent()).toBe("Ready to hand over.");
      await expect.poll(() => phone.locator("#tree button.file").count()).toBeGreaterThan(20);
      expect(await scrollWidth(phone)).toBeLessThanOrEqual(390);
      // Every control: inside the width, and the topmost element at its centre (not covered).
      const controls = await phone.evaluate(() =>
        Array.from(document.querySelectorAll("main button, main input:not([type=file]), main textarea, main a, main summary") as ArrayLike<any>)
          .filter((e: any) => e.offsetParent !== null)
          // The inside of a closed "Details for the developer" is not on screen: one click away.
          .filter((e: any) => !e.closest("details:not([open]) > :not(summary)"))
          .map((e: any) => {
            e.scrollIntoView({ block: "center" });
            const r = e.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 8), r.top + r.height / 2);
            return { what: (e.id || e.textContent || e.tagName).slice(0, 40), left: r.left, right: r.right, reachable: top === e || e.contains(top) || (e.labels && Array.from(e.labels).some((l: any) => l.contains(top))) };
          }),
      );
      expect(controls.length).toBeGreaterThan(20);
      expect(controls.filter((c) => c.left < 0 || c.right > 390).map((c) => c.what)).toEqual([]);
      expect(controls.filter((c) => !c.reachable).map((c) => c.what)).toEqual([]);
      await phone.locator("#diagram").scrollIntoViewIfNeeded();
      await expectDiagramFits(phone, 390);
      // Full file names: each one wraps in its line rather than being cut off.
      expect(await phone.locator("#tree button.file").evaluateAll((bs) => bs.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.getAttribute("data-path")))).toEqual([]);
      await phone.locator('#tree button.file[data-path="vendor/envelope-runtime/src/envelope_runtime/model_env.py"]').tap();
      await expect.poll(() => phone.locator("#file-path").textContent()).toContain("vendor/envelope-runtime/src/envelope_runtime/model_env.py");
      expect(await phone.locator("#file-path").evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      // Panels do not overlap.
      const def = (await phone.locator("section.definition").boundingBox())!;
      const project = (await phone.locator("#project").boundingBox())!;
      expect(def.y + def.height).toBeLessThanOrEqual(project.y);
      const [download] = await Promise.all([phone.waitForEvent("download"), phone.locator("#download").tap()]);
      expect(download.suggestedFilename()).toBe("support-tier-crewai.zip");
      const handoff = phone.locator("#handoff");
      await expect.poll(() => handoff.isVisible()).toBe(true);
      expect(await handoff.textContent()).toContain("support-tier-crewai.zip");
      expect(await phone.locator("#run-command").textContent()).toBe("uv run support_tier --ticket-text VALUE");
      const h = (await handoff.boundingBox())!;
      expect(h.x + h.width).toBeLessThanOrEqual(390);
      expect(await scrollWidth(phone)).toBeLessThanOrEqual(390);
    });
  });

  describe("the guided order, at desktop width", () => {
    let desk: Page;
    beforeAll(async () => {
      ({ page: desk } = await openPage({ viewport: { width: 1366, height: 768 } }));
    }, 60_000);

    it("starts at step 1; “Try the example” loads the example, checks it and leads to the hand-over; a download says what to send", async () => {
      expect(await steps(desk)).toEqual(["paste:current", "check:todo", "target:todo", "handover:todo"]);
      await desk.locator("#source").fill(INVALID);
      await expect.poll(() => steps(desk)).toEqual(["paste:done", "check:current", "target:todo", "handover:todo"]);
      await desk.locator("#example").click();
      await expect.poll(() => desk.locator("#status").textContent()).toBe("Ready to hand over.");
      expect(await desk.locator("#source").inputValue()).toBe(TEXT);
      expect(await steps(desk)).toEqual(["paste:done", "check:done", "target:done", "handover:current"]);
      await expectDiagramFits(desk, 1366);
      // Actual size: the drawing at its own size, the box scrolls if it must.
      await desk.locator("#zoom-full").click();
      const natural = Number((await desk.locator("#diagram > svg").getAttribute("viewBox"))!.split(" ")[2]);
      expect(Math.round((await desk.locator("#diagram > svg").boundingBox())!.width)).toBe(Math.round(natural));
      await desk.locator("#zoom-fit").click();
      await expectDiagramFits(desk, 1366);

      expect(await desk.locator("#handoff").isVisible()).toBe(false);
      const [download] = await Promise.all([desk.waitForEvent("download"), desk.locator("#download").click()]);
      expect(download.suggestedFilename()).toBe("support-tier-crewai.zip");
      await expect.poll(() => desk.locator("#handoff").isVisible()).toBe(true);
      expect(await desk.locator("#handoff h3").textContent()).toBe("Done: support-tier-crewai.zip is downloaded");
      expect(await desk.locator("#handoff").textContent()).toContain("in the folder support-tier/");
      expect(await desk.locator("#run-command").textContent()).toBe("uv run support_tier --ticket-text VALUE");
      expect(await steps(desk)).toEqual(["paste:done", "check:done", "target:done", "handover:done"]);
      // Another framework is another project: the box goes until it is handed over too.
      await desk.locator("#target-langgraph").check();
      await expect.poll(() => desk.locator("#handoff").isVisible()).toBe(false);
      await desk.locator("#target-crewai").check();
      await expect.poll(() => desk.locator("#project-summary").textContent()).toContain("CrewAI");
    });

    it("what was typed is never lost: the example, a file or Clear replaces it, and “Put back what was here” brings it back", async () => {
      const draft = '{"name": "my own team, half written"';
      await desk.locator("#clear").click();
      await desk.locator("#example").click();
      await expect.poll(() => desk.locator("#source").inputValue()).toBe(TEXT);
      expect(await desk.locator("#put-back").isVisible()).toBe(false); // the editor was empty: nothing to put back
      await desk.locator("#source").fill(draft);
      await desk.locator("#example").click();
      await expect.poll(() => desk.locator("#source").inputValue()).toBe(TEXT);
      await desk.locator("#put-back").click();
      expect(await desk.locator("#source").inputValue()).toBe(draft);
      expect(await desk.locator("#put-back").isVisible()).toBe(false);
      await expect.poll(() => desk.locator("#status").textContent()).not.toBe("Ready to hand over.");
      await desk.locator("#clear").click();
      expect(await desk.locator("#source").inputValue()).toBe("");
      await desk.locator("#put-back").click();
      expect(await desk.locator("#source").inputValue()).toBe(draft);
      // The tests after this one go on from the example, checked.
      await desk.locator("#example").click();
      await expect.poll(() => desk.locator("#status").textContent()).toBe("Ready to hand over.");
    });

    it("a created repository: the result under the button, in view; the hand-over box has the link; no second create offered", async () => {
      await desk.locator("#gh-token").fill(TOKEN);
      await desk.locator("#gh-repo").fill("me/handed-over");
      await desk.locator("#gh-create").click();
      const link = desk.locator("#gh-result a").first();
      await link.waitFor();
      // Where the user is looking: right below the button, and on screen.
      const button = (await desk.locator("#gh-create").boundingBox())!;
      const result = (await desk.locator("#gh-result").boundingBox())!;
      expect(result.y).toBeGreaterThanOrEqual(button.y + button.height);
      expect(result.y - (button.y + button.height)).toBeLessThan(40);
      expect(await desk.locator("#gh-result").evaluate((e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })).toBe(true);
      expect(await desk.locator("#gh-create").isDisabled()).toBe(true);
      expect(await desk.locator("#gh-create-state").textContent()).toMatch(/^Repository created\./);
      const handoff = desk.locator("#handoff");
      expect(await handoff.isVisible()).toBe(true);
      expect(await desk.locator("#handoff h3").textContent()).toBe("Done: me/handed-over is on GitHub");
      expect(await desk.locator("#handoff a").getAttribute("href")).toMatch(/\/me\/handed-over$/);
      expect(await desk.locator("#run-command").textContent()).toBe("uv run support_tier --ticket-text VALUE");
      expectRepositoryEquals(gh, "me", "handed-over", exportDefinition(EXAMPLE, TARGETS.crewai!).files!);
      // A failure is shown in the same place: a taken name, after editing the name.
      await desk.locator("#gh-repo").fill("me/taken");
      await desk.locator("#gh-create").click();
      await desk.locator("#gh-result .bad").waitFor();
      expect(await desk.locator("#gh-result").textContent()).toContain("already exists");
      expect(await desk.locator("#gh-result").evaluate((e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })).toBe(true);
      // The token form is a block of its own (a sign-in button goes above it).
      expect(await desk.locator("#gh-token-row #gh-token").count()).toBe(1);
    });

    it("the file tree is one tab stop: Tab enters at the open file, arrows move, Tab leaves", async () => {
      await desk.locator("#copy-all").focus();
      await desk.keyboard.press("Tab");
      const at = () => desk.evaluate(() => ({ path: document.activeElement.getAttribute("data-path") ?? document.activeElement.textContent, inTree: document.getElementById("tree").contains(document.activeElement) }));
      expect(await at()).toEqual({ path: "README.md", inTree: true });
      expect(await desk.locator('#tree [tabindex="0"]').count()).toBe(1);
      await desk.keyboard.press("ArrowDown");
      const next = await at();
      expect(next.inTree).toBe(true);
      expect(next.path).not.toBe("README.md");
      expect(await desk.locator('#tree [tabindex="0"]').count()).toBe(1);
      await desk.keyboard.press("End");
      const last = await desk.locator("#tree button.file").last().getAttribute("data-path");
      expect((await at()).path).toBe(last);
      await desk.keyboard.press("Enter");
      await expect.poll(() => desk.locator("#file-path").textContent()).toContain(last!);
      await desk.keyboard.press("Home");
      const first = await desk.locator("#tree summary, #tree button.file").first().evaluate((e) => e.getAttribute("data-path") ?? e.textContent);
      expect(first).toBe(".envelope/"); // folders first, in name order
      expect((await at()).path).toBe(first);
      // One Tab leaves the tree, whatever its size.
      await desk.keyboard.press("Tab");
      expect((await at()).inTree).toBe(false);
      await desk.keyboard.press("Shift+Tab");
      expect(await at()).toEqual({ path: first, inTree: true });
    });

    it("skip links go to the definition, the project and GitHub", async () => {
      // From the top of a fresh page, as a keyboard user arrives.
      await desk.reload();
      await desk.locator("#targets input").first().waitFor();
      const names: string[] = [];
      for (let i = 0; i < 3; i++) {
        await desk.keyboard.press("Tab");
        names.push(await desk.evaluate(() => document.activeElement.textContent));
      }
      expect(names).toEqual(["Skip to the definition", "Skip to the project", "Skip to GitHub"]);
      await desk.keyboard.press("Enter");
      expect(await desk.evaluate(() => document.activeElement.id)).toBe("github");
      await desk.keyboard.press("Tab");
      expect(await desk.evaluate(() => document.activeElement.id)).toBe("gh-token");
      await desk.locator(".skip", { hasText: "Skip to the project" }).focus();
      await desk.keyboard.press("Enter");
      expect(await desk.evaluate(() => document.activeElement.id)).toBe("project");
    });

    it("README.md opens rendered: headings, tables, code as code, the mermaid block as the team diagram, file links open files", async () => {
      await desk.locator("#example").click();
      await expect.poll(() => desk.locator("#tree button.file").count()).toBeGreaterThan(20);
      await desk.locator('#tree button.file[data-path="README.md"]').click();
      await desk.locator("#view-preview").click();
      const preview = desk.locator("#md-preview");
      expect(await preview.isVisible()).toBe(true);
      expect(await desk.locator("#code-box").isVisible()).toBe(false);
      expect(await preview.locator("h1").first().textContent()).toBe("Support Tier");
      expect(await preview.locator("h2").allTextContents()).toEqual(expect.arrayContaining(["The team", "Install", "Run"]));
      expect(await preview.locator("table").count()).toBeGreaterThan(2);
      expect(await preview.locator("table th").first().textContent()).toBe("agent");
      expect(await preview.locator("code", { hasText: "src/support_tier/envelope.json" }).count()).toBeGreaterThan(0);
      expect(await preview.locator("pre code", { hasText: "uv run support_tier --ticket-text VALUE" }).count()).toBeGreaterThan(0);
      const text = (await preview.textContent())!;
      expect(text).not.toContain("`");
      expect(text).not.toContain("flowchart TD");
      expect(text).not.toMatch(/\]\(|\*\*|^#/m);
      // The mermaid block is the team diagram, drawn in the preview and fitted to it.
      const drawn = preview.locator(".md-diagram svg");
      expect(await drawn.count()).toBe(1);
      expect(await drawn.locator("g.node.agent text.title").allTextContents()).toEqual(["Support Lead", "Billing Specialist", "Technical Specialist"]);
      const pv = (await preview.boundingBox())!;
      const d = (await drawn.boundingBox())!;
      expect(d.x + d.width).toBeLessThanOrEqual(pv.x + pv.width);
      // An external link is a real link, opened apart; a link to a file of the project opens it here.
      expect(await preview.locator('a[href="https://docs.crewai.com/"]').getAttribute("rel")).toBe("noopener noreferrer");
      await preview.locator("button.md-link", { hasText: "TEAM.md" }).first().click();
      await expect.poll(() => desk.locator("#file-path").textContent()).toContain("TEAM.md");
    });

    it("the Markdown renderer builds nodes: unsafe links are text, markup is text", async () => {
      // The page's own module, as the page loads it (a string, so the test's bundler leaves the import alone).
      await desk.evaluate("import('/assets/markdown.js').then((m) => { window.__markdown = m; })");
      const out = await desk.evaluate(() => {
        const { renderMarkdown, codeSpans } = window.__markdown;
        const box = document.createElement("div");
        box.append(renderMarkdown("# T <img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) [b](https://ok.example/x) [c](data:text/html,x) `<b>` **s** *e*\n\n| x | y |\n|---|---|\n| `a|b` | \\| |\n\n- one\n  - nested\n- two\n\n```js\n<script>alert(1)</script>\n```\n"));
        const spans = document.createElement("p");
        spans.append(...codeSpans("use `requiredSecrets` here"));
        return {
          links: Array.from(box.querySelectorAll("a") as ArrayLike<any>).map((a: any) => a.getAttribute("href")),
          tags: Array.from(box.querySelectorAll("*") as ArrayLike<any>).map((e: any) => e.tagName.toLowerCase()),
          h1: box.querySelector("h1").textContent,
          cells: Array.from(box.querySelectorAll("td") as ArrayLike<any>).map((e: any) => e.textContent),
          nested: box.querySelector("ul li ul li")?.textContent,
          pre: box.querySelector("pre code").textContent,
          spans: Array.from(spans.childNodes as ArrayLike<any>).map((n: any) => (n.tagName ? `<${n.tagName.toLowerCase()}>${n.textContent}` : n.textContent)).join(""),
        };
      });
      expect(out.links).toEqual(["https://ok.example/x"]);
      expect(out.tags).not.toContain("img");
      expect(out.tags).not.toContain("script");
      expect(out.tags).not.toContain("b");
      expect(out.tags).toEqual(expect.arrayContaining(["h1", "p", "a", "code", "strong", "em", "table", "ul", "li", "pre"]));
      expect(out.h1).toBe("T <img src=x onerror=alert(1)>");
      expect(out.cells).toEqual(["a|b", "|"]);
      expect(out.nested).toBe("nested");
      expect(out.pre).toBe("<script>alert(1)</script>");
      expect(out.spans).toBe("use <code>requiredSecrets here");
    });
  });

  it("made no request to another origin, and had no script error or policy violation", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
