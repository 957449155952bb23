// Sign in with GitHub through the page, in Chromium, against the fake GitHub's OAuth web flow:
// the builder pastes a definition, signs in (GitHub's consent page, Authorize), comes back to
// the page with the work where it was, creates the repository without ever seeing a token,
// and signs out (the token is revoked). Also: Cancel at GitHub. The token never appears in
// the page (script-readable cookies, storage, markup) or in the server's log.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportDefinition } from "../../src/export/export.js";
import { TARGETS } from "../../src/targets/index.js";
import { CLIENT_ID, CLIENT_SECRET, start, type FakeGitHub } from "../github/fake/index.js";
import { expectCleanContract, expectRepositoryEquals } from "../github/helpers.js";
import { browserGate, launchChromium, watchedPage } from "./browser.js";
import { EXAMPLE, serve, type Served } from "./helpers.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, localStorage: any, sessionStorage: any;

const gate = browserGate();
const TEXT = EXAMPLE.toString("utf8");

describe.skipIf(!gate.run)("Sign in with GitHub on the page (Chromium)", () => {
  let s: Served;
  let gh: FakeGitHub;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    gh = await start();
    s = await serve({ workers: 1, githubApiUrl: gh.url, githubDelayScale: 0, githubOAuth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webUrl: gh.url } });
    gh.oauthApps[CLIENT_ID]!.callback = `${s.url}/auth/github/callback`;
    browser = await launchChromium(gate.executablePath!);
    // The fake GitHub's sign-in pages are the one other origin the trip may reach.
    ({ page } = await watchedPage(browser, `${s.url}/`, { external, problems }, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, [gh.url]));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await gh?.close();
  });

  const status = () => page.locator("#status");
  const pasteExample = async () => {
    await page.locator("#source").fill(TEXT);
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
  };

  /** The builder's trip: the example pasted, a repository named, Sign in, GitHub's consent page (what it asks is returned), an answer there, back on the page. */
  const tripToGitHub = async (repository: string, answer: "#authorize" | "#cancel"): Promise<string[]> => {
    await pasteExample();
    await page.locator("#gh-repo").fill(repository);
    await page.locator("#gh-signin").click();
    await page.waitForURL(`${gh.url}/login/oauth/authorize**`);
    const scopes = await page.locator("#scopes li").allTextContents();
    await page.locator(answer).click();
    await page.waitForURL((u) => u.origin === new URL(s.url).origin && u.pathname === "/");
    return scopes;
  };

  it("offers Sign in with GitHub instead of a token field", async () => {
    await page.locator("#gh-signin").waitFor();
    expect(await page.locator("#gh-signin").isVisible()).toBe(true);
    expect(await page.locator("#gh-token").isVisible()).toBe(false);
  });

  it("Cancel at GitHub comes back to the page with the work kept and says nothing was shared", async () => {
    await tripToGitHub("me/cancelled", "#cancel");
    await expect.poll(() => page.locator("#gh-result").textContent()).toContain("cancelled");
    expect(await page.locator("#source").inputValue()).toBe(TEXT);
    expect(await page.locator("#gh-repo").inputValue()).toBe("me/cancelled");
    expect(await page.locator("#gh-signin").isVisible()).toBe(true);
  });

  it("signs in, comes back with the work where it was, and creates the repository: the CLI's export", async () => {
    // The least scope: a public repository, and the example's export has no workflow.
    expect(await tripToGitHub("me/from-sign-in", "#authorize")).toEqual(["public_repo"]);
    await expect.poll(() => page.locator("#gh-who").textContent()).toContain("me");
    expect(await page.locator("#source").inputValue()).toBe(TEXT);
    expect(await page.locator("#gh-repo").inputValue()).toBe("me/from-sign-in");
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
    await page.locator("#gh-create").click();
    await page.locator("#gh-result a", { hasText: "me/from-sign-in" }).first().waitFor();
    expect(await page.locator("#gh-create").isDisabled()).toBe(true); // no second create invited
    expectRepositoryEquals(gh, "me", "from-sign-in", exportDefinition(EXAMPLE, TARGETS.crewai!).files!);
    expectCleanContract(gh);

    const token = gh.oauth.issued.at(-1)!.token;
    const seen = await page.evaluate(() => ({
      cookies: document.cookie,
      storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      html: document.documentElement.outerHTML,
    }));
    for (const text of Object.values(seen)) expect(text).not.toContain(token);
    expect(seen.cookies).not.toContain("envelope_github"); // HttpOnly: no script can read it
    expect(s.logText()).not.toContain(token);
  });

  it("the builder changes the definition: the existing repository gets the update as a pull request", async () => {
    await page.locator("#source").fill(TEXT.replace('"description": "', '"description": "Updated. '));
    await expect.poll(() => status().textContent()).toBe("Ready to hand over.");
    // The same name again: it holds this team's earlier export, so the page offers the update first.
    await page.locator("#gh-repo").fill("me/from-sign-in ");
    await page.locator("#gh-repo").fill("me/from-sign-in");
    await page.locator("#gh-create").click();
    const offer = page.locator("#gh-result button.primary", { hasText: "Update me/from-sign-in" });
    await offer.waitFor();
    const before = gh.requests.length;
    await offer.click();
    const link = page.locator("#gh-result a", { hasText: /^pull request #\d+$/ });
    await link.waitFor();
    expect(await page.locator("#gh-result").textContent()).toContain("Opened pull request");
    expect(gh.requests.slice(before).some((r) => r.operationId === "pulls/create")).toBe(true);
    expect(gh.requests.slice(before).some((r) => r.operationId === "git/update-ref")).toBe(false);
    expectCleanContract(gh);
  });

  it("signs out: the page offers Sign in again and the token no longer works at GitHub", async () => {
    const token = gh.oauth.issued.at(-1)!.token;
    await page.locator("#gh-signout").click();
    await page.locator("#gh-signin").waitFor();
    expect(gh.oauth.revoked).toContain(token);
    expect(await page.locator("#gh-signout").isVisible()).toBe(false);
  });

  it("made no request to another origin, and had no script error or policy violation", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
