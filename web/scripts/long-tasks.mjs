// make long-tasks: what blocks a slow phone's main thread while a page
// loads. Records a Chromium trace of each page, cold, and lists every task
// that takes over 50 ms on a CPU 4× slower (Lighthouse's mobile multiplier:
// its simulated Total Blocking Time scales the tasks it observes the same
// way), with what ran in it: the script evaluated (by file), the functions
// called (by file), parsing, style and layout, timers and frames. Then the
// count of long tasks and their blocking time (each task's time over 50 ms,
// summed from the first contentful paint on, as Lighthouse sums it), the
// median of RUNS loads. A benchmark: it prints, it asserts nothing.
//
// A task's time is the main thread's CPU time in it (the trace's thread
// duration) times 4, not its wall time: on a machine other work loads,
// wall times (and Lighthouse's scores) grow with that work, the CPU time a
// task needs much less. THROTTLE=wall slows the CPU 4× in the browser
// instead and counts wall time (for a quiet machine).
// Usage: node scripts/long-tasks.mjs BASE_URL [PATH...]   (RUNS=5; TRACE_DIR=dir keeps the traces)
//        node scripts/long-tasks.mjs --trace URL TRACE.json...   (a kept trace, or Lighthouse's:
//        lighthouse URL -GA=dir writes dir/trace.json; its CPU is not slowed, which CPU time × 4 models)
import { readFile, writeFile } from "node:fs/promises";
import { chromium } from "playwright-core";

const [base, ...paths] = process.argv.slice(2);
const KEPT = base === "--trace";
if (!base || (KEPT && paths.length < 2)) {
  console.error("usage: node scripts/long-tasks.mjs BASE_URL [PATH...]");
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 5);
const WALL = process.env.THROTTLE === "wall";
const QUIET_MS = 3000;
// A trace event's time on the slow phone, in ms.
const slowMs = (e) => (WALL ? e.dur : (e.tdur ?? e.dur) * 4) / 1000;
const pages = paths.length ? paths : ["/"];
const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing", "loading", "toplevel", "v8"];
const browser = KEPT ? null : await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

async function trace(path) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (WALL) await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const events = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: CATEGORIES }, transferMode: "ReportEvents" });
  await page.goto(base + path, { waitUntil: "load" });
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 120_000 });
  // What follows hydration counts too (idle work, prefetches, the welcome
  // offer a second after it), as it does for Lighthouse until the page has
  // been quiet a while.
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(QUIET_MS);
  await cdp.send("Tracing.end");
  await done;
  await context.close();
  // TRACE_DIR keeps each trace, to open in Chromium's performance panel.
  if (process.env.TRACE_DIR) await writeFile(`${process.env.TRACE_DIR}/trace-${path.replace(/\W+/g, "_")}-${Date.now()}.json`, JSON.stringify({ traceEvents: events }));
  return events;
}

const shortUrl = (url) => (url ? url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/assets\//, "") || "(page)" : "");

// What a task did: the direct and nested timeline events of the main
// thread inside it, summed by kind (and by script file where there is one).
function describe(task, inside) {
  const parts = new Map();
  const add = (label, ms) => parts.set(label, (parts.get(label) ?? 0) + ms);
  for (const e of inside) {
    const ms = slowMs(e);
    const d = e.args?.data ?? {};
    switch (e.name) {
      case "EvaluateScript":
        add(`evaluate ${shortUrl(d.url) || "inline"}`, ms);
        break;
      case "v8.evaluateModule":
        add(`evaluate module ${shortUrl(d.url ?? e.args?.data?.url)}`, ms);
        break;
      case "FunctionCall":
        add(`call ${d.functionName || "(anonymous)"} ${shortUrl(d.url)}`, ms);
        break;
      case "v8.compile":
      case "v8.compileModule":
        add(`compile ${shortUrl(d.url ?? e.args?.fileName)}`, ms);
        break;
      case "ParseHTML":
        add("parse HTML", ms);
        break;
      case "Layout":
        add("layout", ms);
        break;
      case "UpdateLayoutTree":
        add("style", ms);
        break;
      case "Paint":
      case "PrePaint":
      case "Layerize":
        add("paint", ms);
        break;
      case "TimerFire":
      case "FireAnimationFrame":
      case "FireIdleCallback":
      case "EventDispatch":
        add(`${e.name}${d.type ? ` ${d.type}` : ""}`, ms);
        break;
      default:
    }
  }
  // Nested events are counted inside their parents too: keep the top few.
  return [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([label, ms]) => `${label} ${ms.toFixed(0)}`).join("; ");
}

function analyse(events, url) {
  const threadNames = new Map(events.filter((e) => e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  // The page's renderer: the one whose main thread parsed the document.
  const parse = events.find((e) => e.name === "ParseHTML" && e.args?.beginData?.url === url && threadNames.get(`${e.pid}:${e.tid}`) === "CrRendererMain");
  const main = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === "X" && e.dur !== undefined);
  const navigationStart = events.find((e) => e.name === "navigationStart" && e.pid === parse.pid && e.args?.data?.documentLoaderURL === url)?.ts ?? parse.ts;
  const fcpEvent = events.find((e) => e.name === "firstContentfulPaint" && e.pid === parse.pid && e.ts > navigationStart);
  const fcp = fcpEvent ? fcpEvent.ts : navigationStart;
  const tasks = main.filter((e) => e.name === "RunTask" && slowMs(e) > 50).sort((a, b) => a.ts - b.ts);
  const long = tasks.map((task) => {
    const inside = main.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    const ms = slowMs(task);
    // Lighthouse counts the part of a task over 50 ms, after the first paint.
    const blocking = task.ts >= fcp ? ms - 50 : 0;
    return { at: (task.ts - navigationStart) / 1000, ms, blocking, what: describe(task, inside) };
  });
  return { fcp: (fcp - navigationStart) / 1000, long, tbt: long.reduce((s, t) => s + t.blocking, 0) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const print = (label, result) => {
  console.log(`${label}: first paint ${result.fcp.toFixed(0)} ms, ${result.long.length} long tasks, blocking ${result.tbt.toFixed(0)} ms`);
  for (const t of result.long) console.log(`  at ${t.at.toFixed(0).padStart(5)} ms  ${t.ms.toFixed(0).padStart(4)} ms (blocking ${t.blocking.toFixed(0)}): ${t.what}`);
};
if (KEPT) {
  const [url, ...files] = paths;
  for (const file of files) {
    const trace = JSON.parse(await readFile(file, "utf8"));
    print(file, analyse(trace.traceEvents ?? trace, url));
  }
  process.exit(0);
}
for (const path of pages) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const result = analyse(await trace(path), base + path);
    runs.push(result);
    print(`${path} run ${run + 1}`, result);
  }
  console.log(
    `${path}: median of ${RUNS}: ${median(runs.map((r) => r.long.length))} long tasks, blocking ${median(runs.map((r) => r.tbt)).toFixed(0)} ms (runs ${runs.map((r) => r.tbt.toFixed(0)).join(", ")}) (${WALL ? "wall time, CPU slowed 4×" : "CPU time × 4"})`,
  );
}
await browser.close();
