// The site's pages rendered with the server bundle that `npm run bundle`
// made, by a pool of worker threads that each import the bundle once and
// stay warm between calls (scripts/render-worker.mjs):
// - renderSite: every page of a content into a client build, as React
//   Router's own prerender writes them (index.html per page with its data
//   inline; a .data file per page with loaders, /_root.data for /; the
//   resource routes as files, with their .data; __spa-fallback.html), each
//   compressed as it is written (compression.mjs), and listed in
//   build/prerendered.json for compress.mjs. `npm run prerender`
//   (prerender.mjs) and the warm renderer (renderer.mjs) call it.
// - renderPages: a few pages of a content as they would be served, for
//   previews.
//
// The bundles are the same for any content (no module imports content/:
// the loaders read it, app/lib/content.server.ts), so a text change
// renders pages again and bundles nothing. And a page renders again only
// when something it read changed: each render records the keys of the
// content it read and the hash of each (app/lib/snapshot.server.ts), kept
// in an index in the page cache per code version (<pageCache>/deps-<code>.json).
// A build recomputes each key's hash in the new content; a page whose keys
// all kept theirs is linked from the page cache, its loaders not even run.
// The others render, and so does every page when there is no index (a new
// code, or one damaged): then a page is still linked from the cache when
// its data is what a build rendered before, found by the hash of the code,
// its path and its data (page-cache.mjs), as before the index.
//
// PRERENDER_INDEX=off renders every page by its data, as with no index,
// and writes none; PRERENDER_PROFILE=1 prints the time of each phase.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, renameSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { DAY, pruneDaily, writeNewFile } from "./files.mjs";
import { FALLBACK, SUMS, sha256 } from "./page-cache.mjs";
import { importTs } from "./run-ts.mjs";

const scripts = fileURLToPath(new URL(".", import.meta.url));
const ownWeb = resolve(scripts, "..");

// What makes a page besides what it read: the server bundle (which names
// every client asset too), and the scripts that render, write and
// compress it.
async function codeOf(serverBuild) {
  const parts = [serverBuild, ...["render-site.mjs", "render-worker.mjs", "page-cache.mjs", "compression.mjs", "first-paint.mjs"].map((f) => join(scripts, f))];
  return sha256(Buffer.concat(await Promise.all(parts.map((f) => readFile(f)))));
}

// The site's paths, by the same TypeScript as the browser tests use
// (scripts/run-ts.mjs), compiled once per web folder.
const pathModules = new Map();
async function sitePaths(web, contentDir) {
  if (!pathModules.has(web)) pathModules.set(web, importTs(join(web, "app", "lib", "paths.ts")));
  const paths = await pathModules.get(web);
  const catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
  const gone = paths.gonePaths(catalogue);
  return {
    prerender: [...paths.pagePaths(catalogue), ...gone, paths.NOT_FOUND_PATH, paths.UNKNOWN_PRODUCT_PATH, paths.SEARCH_INDEX_PATH, paths.CHAT_SCRIPT_PATH],
    // The pages of addresses that have none (each answered 404), by the page
    // whose data each shows: the home page's, the products list's.
    notFound: { [paths.NOT_FOUND_PATH]: "/", [paths.UNKNOWN_PRODUCT_PATH]: "/products" },
    unknownAs: (path) => (/^\/product\/[^/]+$/.test(path) ? paths.UNKNOWN_PRODUCT_PATH : paths.NOT_FOUND_PATH),
    gone,
  };
}

// One worker thread: call(op, args) runs op (render-worker.mjs) there.
function startWorker(serverBuild, resourceLimits) {
  const worker = new Worker(new URL("./render-worker.mjs", import.meta.url), { workerData: { serverBuild }, resourceLimits });
  const pending = new Map();
  let last = 0;
  let stopped = null;
  const failAll = (err) => {
    stopped ??= err;
    for (const { fail } of pending.values()) fail(stopped);
    pending.clear();
  };
  worker.on("message", ({ id, ok, value, error }) => {
    const call = pending.get(id);
    pending.delete(id);
    if (ok) return call?.done(value);
    const err = new Error(error.message);
    if (error.stack) err.stack = error.stack;
    if (error.problems) err.problems = error.problems;
    call?.fail(err);
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`render: a worker stopped (exit code ${code})`)));
  const call = (id, message) =>
    new Promise((done, fail) => {
      if (stopped) return fail(stopped);
      pending.set(id, { done, fail });
      if (message) worker.postMessage(message);
    });
  return {
    ready: call(0), // the worker says it when it has imported the bundle
    get stopped() {
      return stopped;
    },
    call: (op, args) => {
      const id = ++last;
      return call(id, { id, op, ...args });
    },
    stop: () => worker.terminate(),
  };
}

/**
 * A pool of `size` workers (by default one a core), each with the server
 * bundle serverBuild imported (resourceLimits: each worker's, as
 * worker_threads takes them). A worker that stops is replaced at the next call.
 */
export async function openRenderPool({ serverBuild, size = availableParallelism(), resourceLimits = undefined }) {
  serverBuild = resolve(serverBuild);
  const code = await codeOf(serverBuild);
  const workers = Array.from({ length: Math.max(1, size) }, () => startWorker(serverBuild, resourceLimits));
  try {
    await Promise.all(workers.map((w) => w.ready));
  } catch (err) {
    await Promise.all(workers.map((w) => w.stop()));
    throw err;
  }
  const worker = async (i) => {
    if (workers[i].stopped) {
      workers[i] = startWorker(serverBuild, resourceLimits);
      await workers[i].ready;
    }
    return workers[i];
  };
  const call = async (i, op, args) => (await worker(i)).call(op, args);
  let nextWorker = 0;
  return {
    size: workers.length,
    code,
    renderSite: (options) => renderSite(options, { code, size: workers.length, call }),
    // Each call to the next worker, so that previews share the cores.
    renderPages: (options) => renderPages(options, (op, args) => call(nextWorker++ % workers.length, op, args)),
    close: () => Promise.all(workers.map((w) => w.stop())).then(() => undefined),
  };
}

// The time of each phase, printed when PRERENDER_PROFILE=1.
function phases() {
  const times = [];
  let last = performance.now();
  return {
    mark(name) {
      const now = performance.now();
      times.push(`${name} ${Math.round(now - last)} ms`);
      last = now;
    },
    text: () => times.join(", "),
  };
}

async function renderSite({ web = ownWeb, contentDir, generatedDir, clientDir, pageCache, log = console.log, warn = log }, { code, size, call }) {
  const profile = phases();
  const { prerender, notFound } = await sitePaths(web, contentDir);
  profile.mark("paths");
  await mkdir(pageCache, { recursive: true });
  // The content's files are read afresh: the same folder may hold other
  // files than at a build before.
  const snapshot = { contentDir, generatedDir, fresh: randomUUID() };
  const useIndex = process.env.PRERENDER_INDEX !== "off";
  const indexFile = join(pageCache, `deps-${code}.json`);
  const index = useIndex ? readIndex(indexFile, pageCache, log, warn) : null;
  profile.mark("index read");
  const rows = [...prerender, FALLBACK];
  let keys = {};
  let changed = new Set();
  const everyWorker = (work) => Promise.all(Array.from({ length: size }, (_, i) => work(i)));
  if (index) {
    const known = Object.keys(index.keys);
    const parts = await everyWorker((i) => call(i, "hashes", { ...snapshot, keys: known.filter((_, j) => j % size === i) }));
    keys = Object.assign({}, ...parts);
    changed = new Set(Object.keys(keys).filter((key) => keys[key] === null || keys[key] !== index.keys[key]));
  }
  profile.mark(`keys (${changed.size} of ${Object.keys(keys).length} changed)`);
  const jobs = rows.map((path) => {
    const row = index?.pages[path];
    return row && !row.deps.some((key) => changed.has(key)) ? { path, deps: row.deps, files: row.files } : { path };
  });

  // Every size-th path, so each worker has pages of every kind.
  const shares = await everyWorker((i) =>
    call(i, "site", { ...snapshot, clientDir, pageCache, code, prerender, notFound, jobs: jobs.filter((_, j) => j % size === i) }),
  ).finally(() => everyWorker((i) => call(i, "forget", snapshot)).catch(() => {}));
  profile.mark("pages");
  for (const share of shares) for (const note of share.notes) warn(note);
  const files = shares.flatMap((share) => share.written);
  const sum = (key) => shares.reduce((n, share) => n + share[key], 0);
  await writeFile(join(web, "build", "prerendered.json"), JSON.stringify(files.map((f) => relative(clientDir, f))));
  if (useIndex) writeIndex(indexFile, shares, keys);
  profile.mark("index write");
  await prunePageCache(pageCache);
  profile.mark("prune");
  if (process.env.PRERENDER_PROFILE === "1") {
    const inWorkers = Object.keys(shares[0].profile).map((phase) => `${phase} ${Math.round(shares.reduce((n, s) => n + s.profile[phase], 0))} ms`);
    log(`prerender profile: ${profile.text()} (in the workers, summed: ${inWorkers.join(", ")})`);
  }
  return { paths: prerender.length, rendered: sum("rendered"), cached: sum("cached"), files: files.length, workers: size };
}

// The index of what each page read, as the last build of this code wrote
// it: {keys: {key: hash}, pages: {path: {deps: [key], files: [[file, name
// in the cache, {ending: stamp}]]}}}, the stamps those of the cached files
// when their SHA-256 was last checked (page-cache.mjs: a file with the
// same stamp is not read again).
// Its first line is the SHA-256 of the rest. null (said) when there is
// none, or it fails its check.
function readIndex(file, pageCache, log, warn) {
  const name = `${relative(dirname(pageCache), pageCache)}/${relative(pageCache, file)}`;
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
    log(`prerender: no index of what the pages read for this code (${name}): each page is rendered, or linked by its data`);
    return null;
  }
  const newline = text.indexOf("\n");
  const body = text.slice(newline + 1);
  let index = null;
  if (newline === 64 && sha256(body) === text.slice(0, 64)) {
    try {
      index = JSON.parse(body);
    } catch {
      index = null;
    }
  }
  if (!index?.keys || !index?.pages) {
    warn(`prerender: the index of what the pages read (${name}) is damaged (its SHA-256 or its form); each page is rendered, or linked by its data`);
    return null;
  }
  return index;
}

// Writes the index whole (a new file renamed over the old): every page's
// row, and the hash of each key in this build's content.
function writeIndex(file, shares, recomputed) {
  const keys = {};
  const pages = {};
  for (const share of shares) {
    for (const [path, { deps, hashes, files }] of Object.entries(share.rows)) {
      pages[path] = { deps, files };
      for (const key of deps) keys[key] = hashes?.[key] ?? recomputed[key];
    }
  }
  const body = JSON.stringify({ keys, pages });
  const temporary = `${file}.${process.pid}.${randomUUID()}.new`;
  writeNewFile(temporary, `${sha256(body)}\n${body}`, 0o444);
  renameSync(temporary, file);
}

// The cached pages none holds any more (no other link: no release or
// build/client has them) and no build has linked for a day go, and the
// sidecars of pages gone (an index of a code not built for a day too).
function prunePageCache(pageCache) {
  return pruneDaily(pageCache, ({ nlink, ctimeMs }, now, name) =>
    name.endsWith(SUMS) ? !existsSync(join(pageCache, name.slice(0, -SUMS.length))) : nlink === 1 && ctimeMs < now - DAY,
  );
}

// Pages of a content as they are served: [{path, status, type, body,
// data, deps}], the body the HTML as written (or a resource's body), data
// the page's .data text (null for a page without), deps the keys it read.
// A path that is not one of the content's pages gets a not-found page,
// with status 404 (an unknown product's, /product/999, the products list's); a removed product's page has status 410. What is read of a snapshot's folders is kept (the last
// four): they must not change (a folder per git tree), or each call must
// name itself apart (fresh).
async function renderPages({ contentDir, generatedDir, assetsDir, paths, fresh }, call) {
  const { prerender, notFound, unknownAs, gone } = await sitePaths(ownWeb, contentDir);
  const known = new Set(prerender);
  const jobs = paths.map((path) => ({ path, as: known.has(path) ? path : unknownAs(path) }));
  return call("pages", { contentDir, generatedDir, fresh, assetsDir, prerender, notFound, gone, jobs });
}
