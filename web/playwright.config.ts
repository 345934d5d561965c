import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The browser tests run Debian's Chromium (Playwright's own browser download
// cannot reach its host here) against bin/studio, built by `make`: its
// headless shell (chromium-headless-shell, the one Playwright's own headless
// runs use), which opens a page in half the time of the full browser.
// The port is chosen once, in the main process; the workers inherit it.
process.env.E2E_PORT ??= freePort();
// The copy of the site with camera-sized photographs (scripts/photo-site.sh),
// which e2e/photos.spec.ts runs against.
process.env.E2E_PHOTO_PORT ??= freePort();
process.env.E2E_PHOTO_SITE ??= fileURLToPath(new URL("../.photo-site", import.meta.url));
// The servers' data, made by the main process and removed when it exits
// (the workers inherit the variable and make none).
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), "studio-e2e-"));
  process.env.E2E_DATA_DIR = dataDir;
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}
// The inbox is on for the enquiry tests; tests name themselves as distinct
// visitors through X-Forwarded-For, which the server believes from loopback.
process.env.E2E_STUDIO_PASSWORD ??= "e2e studio password";
const port = Number(process.env.E2E_PORT);
const photoPort = Number(process.env.E2E_PHOTO_PORT);
const PHOTOS = /photos\.spec\.ts/;
// The Content section's tests change their server's content and build it:
// a server of their own, with the builder (this checkout). words.spec.ts
// reads every workspace page there, the Content section's and the
// releases' among them.
process.env.E2E_EDITOR_PORT ??= freePort();
const editorPort = Number(process.env.E2E_EDITOR_PORT);
const EDITOR = /(editor|words)\.spec\.ts/;
// The tests that follow a mailed link (a reply, an invitation, a password
// reset, a newsletter confirmation): a server of their own that mails
// e2e/mailsink.mjs, which lists what it got at E2E_MAIL_PORT. Its links
// lead to it (PUBLIC_URL, as on a trial server), not to content's baseUrl.
process.env.E2E_MAILED_PORT ??= freePort();
process.env.E2E_SMTP_PORT ??= freePort();
process.env.E2E_MAIL_PORT ??= freePort();
const mailedPort = Number(process.env.E2E_MAILED_PORT);
const MAILED = /\.mailed\.spec\.ts/;

// A port the kernel says is free, asked synchronously (the config is not async).
function freePort(): string {
  const script = 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })';
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  // Generous deadlines, for a machine busy with other work: a test checks
  // what happens, not how fast (that is for the benchmarks).
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: "/usr/bin/chromium-headless-shell", args: CHROMIUM_ARGS },
    trace: "off",
  },
  projects: [
    // The editor, as the studio uses it from a phone. Its tests run one
    // after the other and build the site: first, so that the other worker
    // takes the rest meanwhile, rather than waiting for them at the end.
    {
      name: "editor-phone",
      testMatch: EDITOR,
      use: { baseURL: `http://127.0.0.1:${editorPort}`, viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true },
    },
    // Which screens a test runs on. A test runs once, on the laptop
    // ("desktop", 1280 px), unless what it checks changes with the screen:
    // layout, what is shown, menus, touch, and axe on the public pages (at
    // 375 and 1280; layout.spec.ts at 320 and 1280). Those are tagged @both
    // and run on the phone ("mobile", 375 px, touch) too; @narrow-only runs
    // on the phone alone, @wide-only on the laptop alone. Behaviour (forms,
    // the server's rules, enquiries, the inbox, history, SEO tags, pages
    // without JavaScript) runs once: the screen changes nothing of it.
    // docs/testing.md says which test is where.
    { name: "desktop", grepInvert: /@narrow-only/, testIgnore: [PHOTOS, EDITOR, MAILED], use: { viewport: { width: 1280, height: 800 } } },
    { name: "mobile", grep: /@both|@narrow-only/, testIgnore: [PHOTOS, EDITOR, MAILED], use: { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true } },
    // The photographs, on a wide screen and on a 390-pixel phone at 3×.
    {
      name: "photos-desktop",
      grepInvert: /@narrow-only/,
      testMatch: PHOTOS,
      use: { baseURL: `http://127.0.0.1:${photoPort}`, viewport: { width: 1280, height: 800 } },
    },
    {
      name: "photos-phone",
      grepInvert: /@wide-only/,
      testMatch: PHOTOS,
      use: { baseURL: `http://127.0.0.1:${photoPort}`, viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true },
    },
    // The studio's mailed links, on a laptop.
    {
      name: "mailed",
      testMatch: MAILED,
      use: { baseURL: `http://127.0.0.1:${mailedPort}`, viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: [
    webServer("../bin/studio", port),
    webServer(`${process.env.E2E_PHOTO_SITE}/bin/studio`, photoPort),
    webServer("../bin/studio", editorPort, { BUILDER_DIR: fileURLToPath(new URL("..", import.meta.url)) }),
    {
      command: "node e2e/mailsink.mjs",
      url: `http://127.0.0.1:${process.env.E2E_MAIL_PORT}/`,
      reuseExistingServer: false,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
    },
    webServer("../bin/studio", mailedPort, {
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: process.env.E2E_SMTP_PORT!,
      SMTP_FROM: "website@jharokha.test",
      SMTP_TO: "studio@jharokha.test",
      PUBLIC_URL: `http://127.0.0.1:${mailedPort}`,
    }),
  ],
});

function webServer(command: string, port: number, env: Record<string, string> = {}) {
  return {
    command,
    url: `http://127.0.0.1:${port}/healthz`,
    env: {
      PORT: String(port),
      DATA_DIR: join(process.env.E2E_DATA_DIR!, String(port)),
      STUDIO_PASSWORD: process.env.E2E_STUDIO_PASSWORD!,
      TRUSTED_PROXIES: "127.0.0.1,::1",
      ...env,
    },
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  };
}
