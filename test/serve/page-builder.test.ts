// Issue 35: the handoff page in a builder's words, at desktop (1280×800) and phone (390×844)
// width, in Chromium against a real server and the fake GitHub. Errors come before warnings
// and the status line leads to them; Strict and the connection packs speak plainly, with the
// precise terms one click away; the Team and Files boxes say why they are empty; the loss
// counts are the CLI's, in its words; a taken name that holds an earlier export of this team
// is offered as an update first, and the pull request's result reads as words.
//
// With ENVELOPE_PAGE_SHOTS=DIR every changed state is saved as DIR/<size>-<state>.png, with
// a line each in DIR/INDEX.md, for a reader who has never seen the tool.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start, TOKEN, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract } from "../github/helpers.js";
import { TARGETS, targetNames } from "../../src/targets/index.js";
import { runCli } from "../helpers/cli.js";
import { browserGate, launchChromium, watchedPage } from "./browser.js";
import { EXAMPLE, EXAMPLE_PATH, serve, type Served } from "./helpers.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, window: any, navigator: any, getComputedStyle: any;

const gate = browserGate();
const TEXT = EXAMPLE.toString("utf8");
const SHOTS = process.env.ENVELOPE_PAGE_SHOTS;

/** The example with a warning (a model not in provider:model form) above an error (an unknown manager). */
const WARNING_FIRST = (() => {
  const def = JSON.parse(TEXT);
  def.agents[0].model = "gpt4-no-provider";
  def.agents[2].reportsToKey = "nobody";
  return JSON.stringify(def, null, 2);
})();

const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 }, options: {} },
  { name: "phone", viewport: { width: 390, height: 844 }, options: { isMobile: true, hasTouch: true } },
] as const;

describe.skipIf(!gate.run)("the handoff page in a builder's words (Chromium)", () => {
  let s: Served;
  let gh: FakeGitHub;
  let browser: Browser;
  const external: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    gh = await start({ existing: ["me/taken"] });
    s = await serve({ workers: 2, githubApiUrl: gh.url, githubDelayScale: 0 });
    browser = await launchChromium(gate.executablePath!);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await gh?.close();
  });

  describe.each(SIZES)("at $name width", (size) => {
    let page: Page;
    const status = () => page.locator("#status");
    /** The screen as the builder sees it, saved for a fresh reader (ENVELOPE_PAGE_SHOTS). */
    const shot = async (state: string, what: string) => {
      if (!SHOTS) return;
      const file = `${size.name}-${state}.png`;
      await page.screenshot({ path: join(SHOTS, file) });
      appendFileSync(join(SHOTS, "INDEX.md"), `- \`${file}\` (${size.viewport.width}×${size.viewport.height}): ${what}\n`);
    };
    const inView = (selector: string) =>
      page.locator(selector).first().evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
      });
    const pasteExample = async (text = TEXT) => {
      await page.locator("#source").fill(text);
      await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
    };

    beforeAll(async () => {
      ({ page } = await watchedPage(browser, `${s.url}/`, { external, problems }, { viewport: size.viewport, ...size.options, acceptDownloads: true, permissions: ["clipboard-read", "clipboard-write"] }));
      await page.locator("#targets input").first().waitFor();
    }, 60_000);

    it("explains connection packs by what the builder can do; the file names are one click away", async () => {
      await shot("first-screen", "the page as it opens: the definition box, connection packs explained in plain words, sizes in MB, the problems heading says nothing is checked yet");
      const packs = page.locator("section.packs");
      const shown = await packs.evaluate((e) => e.innerText);
      for (const term of ["pack.json", "reach.openapi.ref", "apiHosts", "OpenAPI"]) expect(shown, term).not.toContain(term);
      expect(shown).toContain("outside service");
      await page.locator("#packs-dev summary").click();
      const opened = await packs.evaluate((e) => e.innerText);
      for (const term of ["pack.json", "reach.openapi.ref", "apiHosts"]) expect(opened, term).toContain(term);
      await page.locator("#packs-dev summary").click();
      // Nothing checked yet: the problems heading says so instead of standing empty; sizes in MB.
      expect(await page.locator("#problems-note").textContent()).toMatch(/^Nothing checked yet: /);
      const whole = await page.locator("body").evaluate((e) => e.innerText);
      expect(whole).not.toMatch(/MiB|KiB/);
      expect(whole).toContain("up to 1 MB");
      // Fit / Actual size only with a drawing to size; the empty Team and Files boxes say why they are empty.
      expect(await page.locator("#zoom").isVisible()).toBe(false);
      for (const id of ["#diagram", "#tree"]) expect(await page.locator(id).textContent(), id).toBe("The project appears here once the definition is valid.");
    });

    it("lists errors before warnings, and the status line leads to the list", async () => {
      await page.locator("#source").fill(WARNING_FIRST);
      await expect.poll(() => status().textContent()).toBe("Invalid: 1 error, 1 warning.");
      // The server lists them by place: the warning (line 78) comes first there.
      const severities = await page.locator("#diagnostics .diag").evaluateAll((bs) => bs.map((b) => (b.classList.contains("error") ? "error" : "warning")));
      expect(severities).toEqual(["error", "warning"]);
      // The card names the agent as the builder did, says whether it blocks; the code and the JSON
      // pointer are the developer's, behind "Details for the developer".
      const error = page.locator("#diagnostics .diag.error").first();
      const card = await error.evaluate((e) => e.innerText);
      expect(card).toContain("Error: stops the export");
      expect(card).toContain("Technical Specialist's place in the team");
      for (const term of ["E_REPORTS_TO_UNKNOWN", "/agents/2"]) expect(card, term).not.toContain(term);
      const warning = await page.locator("#diagnostics .diag.warning").first().evaluate((e) => e.innerText);
      expect(warning).toContain("Warning: the export still works");
      expect(warning).toContain("Support Lead's model");
      expect(warning).not.toContain("W_MODEL_FORMAT");
      const errorCard = page.locator("#diagnostics li.diag-card.error").first();
      expect(await errorCard.locator("details.dev .code-name").isVisible()).toBe(false);
      await errorCard.locator("details.dev summary").click();
      expect(await errorCard.locator("details.dev").evaluate((e) => e.innerText)).toContain("E_REPORTS_TO_UNKNOWN at /agents/2/reportsToKey");
      await errorCard.locator("details.dev summary").click();
      const note = (await page.locator("#problems-note").textContent())!;
      expect(note).toMatch(/^Errors \(red\) stop the export; warnings \(yellow\) do not\. /);
      expect(note).toContain("Envelope builder");
      const go = page.locator("#status-go");
      expect(await go.isVisible()).toBe(true);
      expect(await go.textContent()).toBe("Show the problems");
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot("invalid-status", "an invalid definition: the status line says so and offers “Show the problems”");
      await go.click();
      await expect.poll(() => inView("#diagnostics .diag.error")).toBe(true);
      expect(await page.evaluate(() => document.activeElement.classList.contains("error"))).toBe(true);
      // The focused error looks like an error (its own red, not a grey button) and shows its focus.
      const look = await page.evaluate(() => {
        const e = document.activeElement;
        const w = document.querySelector("#diagnostics .diag.warning");
        const cs = getComputedStyle(e);
        return { outline: cs.outlineStyle, background: cs.backgroundColor, border: parseFloat(cs.borderLeftWidth), warningBorder: parseFloat(getComputedStyle(w).borderLeftWidth) };
      });
      expect(look.outline).not.toBe("none");
      expect(look.background).toMatch(/^rgb\(25[0-3], 2(1\d|2\d|3\d)/); // a red tint
      expect(look.border).toBeGreaterThan(look.warningBorder);
      // The warning is whole, its hint too: the list is not a scroll box that cuts it off.
      expect(await page.locator("#diagnostics").evaluate((e) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
      await page.locator("#diagnostics .diag.warning .hint-line").scrollIntoViewIfNeeded();
      expect(await inView("#diagnostics .diag.warning .hint-line")).toBe(true);
      await page.locator("#diagnostics .diag.error").first().scrollIntoViewIfNeeded();
      // The editor shows the line of the problem in focus (line 155 of WARNING_FIRST).
      const line = WARNING_FIRST.split("\n").findIndex((l) => l.includes('"nobody"')) + 1;
      const shows = await page.locator("#source").evaluate((t, n) => t.scrollTop <= (n - 1) * 20 && (n - 1) * 20 < t.scrollTop + t.clientHeight, line);
      expect(shows).toBe(true);
      // No project: nothing to size.
      expect(await page.locator("#zoom").isVisible()).toBe(false);
      await shot("invalid-problems", "after “Show the problems”: what blocks and what does not, where to fix; the error first, focused, named by its agent; the codes behind “Details for the developer”");
      // Fixed: no way to problems is offered any more.
      await pasteExample();
      expect(await go.isVisible()).toBe(false);
    });

    it("Strict says what would not work and what to do, with the precise terms for the developer; Team and Files say why they are empty", async () => {
      await page.locator("#target-crewai").check();
      await pasteExample();
      await page.locator("#strict").check();
      await expect.poll(() => status().textContent()).toMatch(/^Strict stops the export: /);
      const line = (await status().textContent())!;
      expect(line).toBe("Strict stops the export: Support Lead's access policy (the web addresses it may reach) would work only in part in CrewAI. Turn Strict off to export anyway (the developer gets a report of what works differently), or choose another framework.");
      const box = page.locator("#strict-refusal");
      const shown = await box.evaluate((e) => e.innerText);
      // No JSON path, no framework internals: those are in the developer's details, closed.
      for (const term of ["agents[0]", "accessPolicy", "http_request", "coworker", "approximated"]) expect(shown, term).not.toContain(term);
      expect(shown).toContain("Support Lead's access policy");
      expect(shown).toContain("Turn Strict off");
      // Whether each other framework runs the team as written, in the registry's order, each
      // with a button that picks it: LangGraph and LangGraph.js carry the example whole.
      const others = targetNames().filter((t) => t !== "crewai");
      expect(others.length).toBeGreaterThan(0);
      const other = box.locator(".other-target");
      await expect.poll(() => other.count(), { timeout: 10_000 }).toBe(others.length);
      const titles = others.map((t) => TARGETS[t]!.title);
      expect(await other.allTextContents()).toEqual(titles.map((t) => `${t} runs this team as written. Choose ${t}`));
      expect(await other.locator("button").allTextContents()).toEqual(titles.map((t) => `Choose ${t}`));
      await box.locator("details.dev summary").click();
      const precise = await box.evaluate((e) => e.innerText);
      expect(precise).toContain("agents[0].accessPolicy (approximated)");
      expect(precise).toContain("http_request");
      await box.locator("details.dev summary").click();
      // Nothing green beside Strict's refusal: the export is stopped.
      expect(await page.locator("#diagnostics .ok-line").count()).toBe(0);
      expect(await page.locator("#diagnostics .note-line").textContent()).toMatch(/^The definition has no problems\. Strict stops the export/);
      // The Team and Files boxes are not blank: they say why.
      for (const id of ["#diagram", "#tree"]) expect(await page.locator(id).textContent(), id).toMatch(/^Strict stops the export, so there is no project to show/);
      expect(await page.locator("#zoom").isVisible()).toBe(false);
      await box.scrollIntoViewIfNeeded();
      await shot("strict", "Strict on, CrewAI: what would not work, in plain words, what to do, whether each other framework runs it as written (with a button that picks it), the developer's details closed; nothing green beside it");
      // Its own picture: the Team box at the top of the view, the Files box under it.
      await page.locator("#team-h").evaluate((e) => e.scrollIntoView({ block: "start" }));
      expect(await inView("#tree .empty")).toBe(true);
      await shot("strict-empty-boxes", "Strict on: the Team and Files boxes say why there is no project to show");
      await page.locator("#strict").uncheck();
      await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
      expect(await page.locator("#zoom").isVisible()).toBe(true);
      // File names wrap after "_" or ".", not mid-word.
      const name = page.locator('#tree button.file[data-path$="crew_commands.py"]').first();
      expect(await name.textContent()).toBe("crew_commands.py");
      expect(await name.evaluate((e) => e.querySelectorAll("wbr").length)).toBeGreaterThan(0);
      expect(await page.locator("#tree").evaluate((t) => [...t.querySelectorAll("button.file")].every((b) => b.scrollWidth <= b.clientWidth + 1))).toBe(true);
    });

    it("counts the loss as the CLI does, in the same words", async () => {
      const cli = await runCli(["export", EXAMPLE_PATH, "--target", "crewai", "--dry-run"]);
      expect(cli.code, cli.stderr).toBe(0);
      const counted = /^loss report: (.+)$/m.exec(cli.stdout)![1]!;
      expect(counted).toMatch(/^\d+ carried, \d+ approximated, [1-9]\d* not carried \(\d+ of them registry-only\)$/);
      await page.locator("#loss-summary").scrollIntoViewIfNeeded();
      expect(await page.locator("#loss-summary").textContent()).toMatch(new RegExp(`^${counted.replace(/[()]/g, "\\$&")}\\.$`));
      // Each word of the counts is said in a builder's words; registry-only is not a loss.
      const words = (await page.locator("#loss-words").textContent())!;
      for (const term of ["carried:", "approximated:", "not carried:", "registry-only:"]) expect(words, term).toContain(term);
      expect(words).toContain("nothing is lost");
      const summary = (await page.locator("#loss-summary").textContent())!;
      for (const term of ["runtime", "listing data", "provenance"]) expect(summary, term).not.toContain(term);
      // The approximated field is named as Strict names it, the developer's detail one click away.
      const row = page.locator("#loss-body tr.approximated").first();
      const shown = await row.evaluate((e) => e.innerText);
      expect(shown).toContain("Support Lead's access policy");
      expect(shown).not.toContain("coworker");
      await row.locator("details.dev summary").click();
      expect(await row.evaluate((e) => e.innerText)).toContain("coworker");
      await row.locator("details.dev summary").click();
      const registry = await page.locator("#loss-body tr.registry").first().evaluate((e) => e.innerText);
      expect(registry).not.toMatch(/provenance|runtime/);
      await shot("loss", "the loss report's counts: the same numbers and words as the command line's, each word explained, the approximated field named by its agent");
    });

    it("a taken name holding this team's earlier export: the update is offered first, plainly; the pull request's result reads as words", async () => {
      const repository = `me/builder-${size.name}`;
      // What a token is and how to get one, in steps; the scopes pre-filled in GitHub's link.
      const help = await page.locator("#gh-token-hint").evaluate((e) => e.innerText);
      expect(help).toMatch(/^A token is a key that lets this page create the repository/);
      for (const term of ["public_repo", "classic", "fine-grained", "Administration"]) expect(help, term).not.toContain(term);
      expect(await page.locator("#gh-token-new").getAttribute("href")).toBe("https://github.com/settings/tokens/new?scopes=public_repo,workflow&description=Envelope%20export");
      await page.locator("#gh-private").check();
      expect(await page.locator("#gh-token-new").getAttribute("href")).toMatch(/\?scopes=repo,workflow&/);
      await page.locator("#gh-private").uncheck();
      await page.locator("#gh-token-dev summary").click();
      expect(await page.locator("#gh-token-dev a").getAttribute("href")).toBe("https://github.com/settings/personal-access-tokens/new");
      await page.locator("#gh-token-dev summary").click();
      await page.locator("#gh-token").fill(TOKEN);
      await page.locator("#gh-repo").fill(repository);
      await page.locator("#gh-create").click();
      await page.locator("#gh-result a", { hasText: repository }).first().waitFor();
      // The builder changes the team, and sends it to the same repository.
      await pasteExample(TEXT.replace('"description": "', '"description": "Updated. '));
      expect(await page.locator("#gh-create").isEnabled()).toBe(true);
      await page.locator("#gh-create").click();
      const update = page.locator("#gh-result button", { hasText: `Update ${repository}` });
      await update.waitFor();
      const result = page.locator("#gh-result");
      expect(await result.locator(".bad").count()).toBe(0);
      expect(await status().textContent()).not.toMatch(/failed/i);
      expect(await status().getAttribute("class")).not.toContain("bad");
      expect(await result.locator("p").first().textContent()).toBe(`${repository} holds an earlier export of Support Tier (version 1.0.0) for CrewAI.`);
      // The update is the first choice, and the primary one; other names come after it.
      expect(await result.locator("button").first().textContent()).toBe(`Update ${repository}`);
      expect(await update.getAttribute("class")).toContain("primary");
      expect(await result.textContent()).toMatch(/opens a pull request: \d+ files? updated\. The developer reviews and merges it/);
      await expect.poll(() => inView(`#gh-result button.primary`)).toBe(true);
      // Creating under this name again would only repeat the answer: the button waits for another name.
      expect(await page.locator("#gh-create").isDisabled()).toBe(true);
      // The button names its action; what happened is text beside it.
      expect(await page.locator("#gh-create").textContent()).toBe("Create GitHub repo");
      expect(await page.locator("#gh-create-state").textContent()).toMatch(/^This name is taken: /);
      // A free name only fills in the box, and the page says so.
      expect(await result.locator(".free-names").textContent()).toContain("A name only fills in the Repository box; nothing is created until you press");
      await shot("update-offered", "the name is taken by this team's earlier export: the update offered first, other names after (they only fill in the box); the token explained in steps");
      await update.click();
      const link = result.locator("a", { hasText: /^pull request #\d+$/ });
      await link.waitFor();
      const said = (await result.textContent())!;
      expect(said).not.toContain("null");
      expect(said).not.toMatch(/\(\d+ \w+\)/);
      expect(said).toMatch(new RegExp(`^Opened pull request #\\d+ on ${repository}: \\d+ files? updated\\.`));
      // Done with this name: no second send is invited, and the button says why.
      expect(await page.locator("#gh-create").isDisabled()).toBe(true);
      expect(await page.locator("#gh-create").textContent()).toBe("Create GitHub repo");
      expect(await page.locator("#gh-create-state").textContent()).toMatch(/^Update proposed\. /);
      expect(said).toContain("the pull request shows the developer each change");
      await expect.poll(() => inView("#gh-result")).toBe(true);
      await shot("update-opened", "the update is a pull request: what it changes in words, the link to send with “Copy link”; the button names its action, what happened is said beside it");
      // The link to send, with a button that copies it.
      const prUrl = (await result.locator("a", { hasText: /^http/ }).getAttribute("href"))!;
      await result.locator("button.copy-link").click();
      await expect.poll(() => status().textContent()).toBe("Copied the link.");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(prUrl);
      expect(gh.pullRequests("me", `builder-${size.name}`)).toHaveLength(1);
      // A name taken by a repository no export made: said plainly, other names offered, no update.
      await page.locator("#gh-repo").fill("me/taken");
      await page.locator("#gh-create").click();
      await result.locator(".bad", { hasText: "already exists" }).waitFor();
      expect(await result.locator("button", { hasText: /^Update / }).count()).toBe(0);
      expect(await status().textContent()).toBe("me/taken already exists: choose another name.");
      expect(await result.locator("p").first().textContent()).toBe("me/taken already exists on GitHub, and it is not an earlier export of this team: choose another name.");
      expect(await result.locator("p.hint").count()).toBe(0); // its hint only listed the free names the buttons offer
      expect(await page.locator("#gh-create").textContent()).toBe("Create GitHub repo");
      expect(await page.locator("#gh-create-state").textContent()).toMatch(/^This name is taken: /);
      await shot("name-taken", "a name taken by a repository no export made: why, and free names to pick; the button waits for another name, its state said beside it");
      expectCleanContract(gh);
    }, 90_000);
  });

  it("made no request to another origin, and had no script error or policy violation", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
