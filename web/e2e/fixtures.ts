import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Cookie, type Page } from "@playwright/test";
import { OFFER_SEEN_KEY } from "../app/components/offer/timing";

export type TrackedEvent = { name: string; params: Record<string, unknown> };

// How long a person needs at least to fill in a form (enquiry.MinFillTime,
// internal/enquiry/enquiry.go): a form sent sooner after the start time the
// server signed for it (POST /api/form-start) is a robot's, and kept as spam.
const PERSONS_PACE_MS = 3_000;

type TestFixtures = {
  problems: string[];
  welcomeOffer: boolean;
  personsPace: (page: Page) => Promise<void>;
  openStudio: (page: Page) => Promise<void>;
};
type WorkerFixtures = { earlierFormStart: string; studioSession: Cookie[] };

// Every browser test fails on a console error or warning, an uncaught page
// error, or a Content-Security-Policy violation, in any page it opened. Not counted: the
// browser's own note that a page it navigated to answered with an error
// status: the site's unknown paths (404) and the inbox's refused sign-in
// (401, 429) do that on purpose, and their tests check the status; and its
// note of a photograph the workspace's upload script sent that the server
// refused or the test's connection lost: the page says so, and the tests
// check those words.
export const test = base.extend<TestFixtures, WorkerFixtures>({
  // The welcome offer covers "/" one second after load in every new session.
  // Tests of other features start with it already seen, so it never lands
  // on what they click; offer.spec.ts sets `test.use({ welcomeOffer: true })`.
  welcomeOffer: [false, { option: true }],
  context: async ({ context, welcomeOffer }, use) => {
    if (!welcomeOffer) {
      await context.addInitScript((key) => {
        try {
          window.sessionStorage.setItem(key, "1");
        } catch {
          // pages without storage (about:blank, other origins) have no offer either
        }
      }, OFFER_SEEN_KEY);
    }
    await use(context);
  },
  // A start time the server signed as the worker began: by the time a test
  // sends a form, older than a person needs to fill it in.
  earlierFormStart: [
    async ({ playwright }, use, workerInfo) => {
      const api = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      const response = await api.post("/api/form-start");
      expect(response.status()).toBe(200);
      const { started } = (await response.json()) as { started: string };
      await api.dispose();
      await use(started);
    },
    { scope: "worker", auto: true },
  ],
  // personsPace(page): the page's forms are sent at a person's pace, without
  // the test waiting for one: asked for its start time, the page is given
  // the one the server signed as the worker began, as if the visitor had
  // opened the form a while ago. Call it before the form's first edit.
  personsPace: async ({ earlierFormStart }, use) => {
    const signedAt = Number(earlierFormStart.split(".")[0]);
    await use(async (page) => {
      // Only a test at the very start of its worker finds it younger.
      await expect.poll(() => Date.now() - signedAt, { message: "the worker's form start time is a person's pace old" }).toBeGreaterThanOrEqual(PERSONS_PACE_MS);
      await page.route("**/api/form-start", (route) => route.fulfill({ json: { started: earlierFormStart } }));
    });
  },
  // Signed in once per worker as the account STUDIO_PASSWORD makes
  // ("studio"): each sign-in is a deliberate password hash. Signing in
  // itself is tested where it is the subject (signInToStudio).
  studioSession: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      await signInToStudio(page);
      const { cookies } = await context.storageState();
      await context.close();
      await use(cookies);
    },
    { scope: "worker" },
  ],
  // openStudio(page): the workspace's first page, signed in with the
  // worker's session. A test that signs out signs in on its own instead.
  openStudio: async ({ studioSession }, use) => {
    await use(async (page) => {
      await page.context().addCookies(studioSession);
      await page.goto("/studio");
      await expect(page.getByRole("heading", { level: 1, name: /^Enquiries/ })).toBeVisible();
    });
  },
  problems: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        const refusedDocuments = new Set<string>();
        page.on("response", (res) => {
          if (res.status() >= 400 && res.request().isNavigationRequest()) refusedDocuments.add(res.url());
        });
        page.on("console", (msg) => {
          const documentNotFound =
            /status of 4\d\d/.test(msg.text()) && refusedDocuments.has(msg.location().url);
          const photographNotTaken =
            /^Failed to load resource: (the server responded with a status of 4\d\d|net::ERR_)/.test(msg.text()) &&
            msg.location().url.endsWith("/studio/content/photos");
          if ((msg.type() === "error" || msg.type() === "warning") && !documentNotFound && !photographNotTaken) {
            problems.push(`console ${msg.type()} on ${page.url()}: ${msg.text()} (${msg.location().url})`);
          }
        });
        page.on("pageerror", (err) => problems.push(`page error on ${page.url()}: ${err.message}`));
      };
      // A Content-Security-Policy violation fails the test, whatever the
      // browser prints about it.
      await context.exposeBinding("__reportCspViolation", ({ page }, text: string) => {
        problems.push(`CSP violation on ${page.url()}: ${text}`);
      });
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) => {
          const report = (window as unknown as { __reportCspViolation?: (t: string) => void }).__reportCspViolation;
          report?.(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
        });
      });
      context.on("page", watch);
      context.pages().forEach(watch);
      await use(problems);
      expect(problems, "console errors, warnings and page errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

// Replaces window.gtag with a recorder, so tests can read the events the
// site sends. Call before the first navigation.
export async function recordAnalytics(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __events: TrackedEvent[]; gtag: (...args: unknown[]) => void };
    w.__events = [];
    w.gtag = (command: unknown, name: unknown, params: unknown) => {
      if (command === "event") w.__events.push({ name: String(name), params: (params ?? {}) as Record<string, unknown> });
    };
  });
}

export async function trackedEvents(page: Page, name?: string): Promise<TrackedEvent[]> {
  const events = await page.evaluate(() => (window as unknown as { __events: TrackedEvent[] }).__events);
  return name ? events.filter((e) => e.name === name) : events;
}

// Waits until React has hydrated the prerendered page.
export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

// Holds the page's scripts (or those `scripts` matches) back by route
// interception until the returned function is called: the page as a
// visitor on a slow network has it before they arrive. Call before the
// navigation.
export async function holdScripts(page: Page, scripts = "**/assets/*.js"): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(scripts, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

// Resolves once the browser has drawn two more frames: the scroll events,
// scroll-linked styles and intersection callbacks of what the test just
// did have all run by then. A condition, where a fixed sleep would race.
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

// Signs in to the studio's workspace, as the account STUDIO_PASSWORD makes
// ("studio") unless another is given.
export async function signInToStudio(page: Page, email = "studio", password = process.env.E2E_STUDIO_PASSWORD!): Promise<void> {
  await page.goto("/studio");
  await page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Enquiries/ })).toBeVisible();
}

// axe's violations of WCAG 2.1 A and AA on the page, or in one part of it
// (a CSS selector).
export async function axeViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  return (await (include ? builder.include(include) : builder).analyze()).violations;
}

export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  const violations = await axeViolations(page, include);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

// A name no other test run has used, so a test finds its own enquiry.
export function unique(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}
