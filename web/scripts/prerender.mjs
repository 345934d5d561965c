// `npm run prerender`: every page of the content, rendered with the server
// bundle that `npm run bundle` made, into build/client, as React Router's
// own prerender (`react-router build` with ssr: false and a prerender
// list: @react-router/dev, handlePrerender and handleSpaMode) writes them:
// - index.html per page, with its data (the loaders' output) inline;
// - a .data file per page with loaders (/_root.data for /), which client
//   navigation fetches;
// - resource routes (/search-index.json, /chat.json) as files, with their .data;
// - __spa-fallback.html.
// The bundles are the same for any content (no module imports content/:
// the loaders read it, app/lib/content.server.ts), so a text change runs
// this and not the bundling.
//
// Each page is compressed as it is written (scripts/compression.mjs), and
// the pages are shared among workers, one a core: a 300-product site has
// 1,600 pages. A page's HTML depends only on the code and its data, so it
// is kept in .page-cache by the hash of both: a page whose data is what a
// build rendered before is linked from there, not rendered again (a text
// on one product page re-renders that page, not the site). A cached page
// is shared, by hard link, with every release that has it, so its files
// are read-only, and used again only when they still have the SHA-256 its
// sidecar (<key>.html.sha256) lists: one written into through a release
// is rendered again, never linked into another.
//
// CONTENT_DIR: the content (default ../content); SERVER_BUILD: the server
// bundle (default build/server/index.js). The page paths come from the
// content's catalogue (app/lib/paths.ts, pagePaths).
import { createHash } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { DAY, linkIfThere, pruneDaily, removeFile, writeNewFile } from "./files.mjs";
import { availableParallelism } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { importTs } from "./run-ts.mjs";
import { PRERENDERED, compressPage } from "./compression.mjs";
import { firstPaint } from "./first-paint.mjs";

const web = new URL("..", import.meta.url).pathname;
const contentDir = resolve(process.env.CONTENT_DIR ?? join(web, "..", "content"));
const serverBuild = resolve(process.env.SERVER_BUILD ?? join(web, "build", "server", "index.js"));
const clientDir = join(web, "build", "client");
const pageCache = join(web, ".page-cache");
// A cached page's sidecar: the SHA-256 of each of its files, by the
// ending after the page's name ("", ".gz", ".br").
const SUMS = ".sha256";
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
// What the loaders read (app/lib/content.server.ts).
process.env.CONTENT_DIR = contentDir;
process.env.GENERATED_DIR ??= join(web, ".generated");
// React's production build: its development build renders the same pages
// at half the speed.
process.env.NODE_ENV = "production";
// React Router honours its build-time headers (X-React-Router-Prerender-Data,
// X-React-Router-SPA-Mode) only in a build, so marked.
process.env.IS_RR_BUILD_REQUEST = "yes";

const started = Date.now();

// The site's paths, by the same TypeScript as the browser tests use
// (scripts/run-ts.mjs).
async function sitePaths() {
  const paths = await importTs(join(web, "app", "lib", "paths.ts"));
  const catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
  return {
    prerender: [...paths.pagePaths(catalogue), paths.NOT_FOUND_PATH, paths.SEARCH_INDEX_PATH, paths.CHAT_SCRIPT_PATH],
    notFound: paths.NOT_FOUND_PATH,
  };
}

// The main thread lists the paths and shares them among the workers;
// each worker renders its share with a handler of its own.
if (isMainThread) {
  const { prerender, notFound } = await sitePaths();
  // What makes a page besides its data: the server bundle (which names
  // every client asset too), and the scripts that write and compress it.
  const hash = createHash("sha256");
  for (const file of [serverBuild, new URL(import.meta.url).pathname, new URL("compression.mjs", import.meta.url).pathname, new URL("first-paint.mjs", import.meta.url).pathname]) {
    hash.update(await readFile(file));
  }
  const code = hash.digest("hex");
  await mkdir(pageCache, { recursive: true });
  // One worker a core, each with 100 paths or more (PRERENDER_WORKERS: as many as it says).
  const count = Number(process.env.PRERENDER_WORKERS) || Math.max(1, Math.min(availableParallelism(), Math.ceil(prerender.length / 100)));
  const shares = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      // Every count-th path, so each worker has pages of every kind; the
      // first also writes the SPA fallback.
      const paths = prerender.filter((_, j) => j % count === i);
      return new Promise((done, fail) => {
        const worker = new Worker(new URL(import.meta.url), {
          workerData: { prerender, paths, fallback: i === 0, code, notFound },
        });
        worker.once("message", done);
        worker.once("error", fail);
        worker.once("exit", (code) => fail(new Error(`prerender: a worker stopped (exit code ${code}) before it finished`)));
      });
    }),
  );
  const files = shares.flatMap((share) => share.written);
  const sum = (key) => shares.reduce((n, share) => n + share[key], 0);
  await writeFile(PRERENDERED, JSON.stringify(files.map((f) => relative(clientDir, f))));
  await prunePageCache();
  console.log(
    `prerender: ${prerender.length} paths (pages: ${sum("rendered")} rendered, ${sum("cached")} unchanged from .page-cache), ${files.length} files (compressed) in ${pretty(clientDir)} from ${pretty(contentDir) || contentDir}, ${count} workers (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
} else {
  parentPort.postMessage(await renderShare(workerData));
}

// The cached pages none holds any more (no other link: no release or
// build/client has them) and no build has linked for a day go, and the
// sidecars of pages gone.
function prunePageCache() {
  return pruneDaily(pageCache, ({ nlink, ctimeMs }, now, name) =>
    name.endsWith(SUMS) ? !existsSync(join(pageCache, name.slice(0, -SUMS.length))) : nlink === 1 && ctimeMs < now - DAY,
  );
}

async function renderShare({ prerender, paths, fallback, code, notFound }) {
  const { createRequestHandler, matchRoutes } = await import("react-router");
  const serverModule = await import(pathToFileURL(serverBuild).href);
  // The bundle is kept as an ssr: true build (react-router.config.ts); the
  // pages are rendered as ssr: false with this list, as the prerender would.
  const build = { ...serverModule, ssr: false, isSpaMode: false, prerender };
  const handler = createRequestHandler(build, "production");
  const { basename, future } = build;

  // The route tree of a manifest, as @react-router/dev's createPrerenderRoutes.
  function routeTree(manifest, parentId = "", byParent = groupByParent(manifest)) {
    return (byParent[parentId] ?? []).map((route) => {
      const common = { id: route.id, path: route.path };
      if (route.index) return { index: true, ...common };
      return { children: routeTree(manifest, route.id, byParent), ...common };
    });
  }
  function groupByParent(manifest) {
    const routes = {};
    for (const route of Object.values(manifest)) {
      if (!route) continue;
      (routes[route.parentId || ""] ??= []).push(route);
    }
    return routes;
  }

  const written = [];
  let rendered = 0;
  let cached = 0;
  // Files are written and compressed on the worker's own thread
  // (files.mjs, compression.mjs): the worker is a core's worth of work.
  const made = new Set(); // the folders made
  function folderOf(file) {
    if (!made.has(dirname(file))) mkdirSync(dirname(file), { recursive: true });
    made.add(dirname(file));
  }
  // Writes a file with its compressed copies (where smaller), read-only,
  // and links them into the page cache as cacheName when given, with the
  // sidecar of their hashes (written last: a page without one is not used).
  function write(file, text, cacheName) {
    const body = Buffer.from(file.endsWith(".html") ? firstPaint(text, join(clientDir, "assets")) : text);
    const { gz, br } = compressPage(body);
    folderOf(file);
    const made = { "": body };
    for (const [ext, copy] of [[".gz", gz], [".br", br]]) if (copy.length < body.length) made[ext] = copy;
    for (const ext of ["", ".gz", ".br"]) {
      if (made[ext]) writeNewFile(`${file}${ext}`, made[ext], 0o444);
      else removeFile(`${file}${ext}`);
    }
    written.push(file);
    if (!cacheName) return;
    discard(cacheName); // what was cached under this name, whole or not
    const sums = {};
    for (const [ext, bytes] of Object.entries(made)) {
      linkSync(`${file}${ext}`, join(pageCache, `${cacheName}${ext}`));
      sums[ext] = sha256(bytes);
    }
    writeNewFile(join(pageCache, `${cacheName}${SUMS}`), JSON.stringify(sums), 0o444);
  }

  // Deletes the files of a cached page (the releases linking them keep them).
  function discard(name) {
    for (const ext of ["", ".gz", ".br", SUMS]) removeFile(join(pageCache, `${name}${ext}`));
  }

  // The sums of a cached page whose files all have the SHA-256 its sidecar
  // lists; null when it is not cached, or (said, and discarded) when it
  // fails the check.
  function intactSums(name) {
    let text;
    try {
      text = readFileSync(join(pageCache, `${name}${SUMS}`), "utf8");
    } catch (err) {
      if (err.code === "ENOENT") return null;
      throw err;
    }
    const problem = problemOf(name, text);
    if (!problem) return JSON.parse(text);
    console.warn(`prerender: the cached page ${relative(web, pageCache)}/${name} failed its check (${problem}); rendered again`);
    discard(name);
    return null;
  }

  // What is wrong with the cached page name whose sidecar says text, if anything.
  function problemOf(name, text) {
    let sums;
    try {
      sums = JSON.parse(text);
    } catch {
      sums = null;
    }
    if (typeof sums?.[""] !== "string" || Object.keys(sums).some((ext) => !["", ".gz", ".br"].includes(ext))) return `${name}${SUMS} is not whole`;
    for (const [ext, sum] of Object.entries(sums)) {
      let bytes;
      try {
        bytes = readFileSync(join(pageCache, `${name}${ext}`));
      } catch (err) {
        if (err.code === "ENOENT") return `${name}${ext} is missing`;
        throw err;
      }
      if (sha256(bytes) !== sum) return `${name}${ext} has not the SHA-256 its sidecar lists`;
    }
    return null;
  }

  // A path's data (React Router's .data file) and where it goes.
  async function prerenderData(path, onlyRoutes, init) {
    let dataPath;
    if (future.v8_trailingSlashAwareDataRequests) dataPath = path.endsWith("/") ? `${path}_.data` : `${path}.data`;
    else dataPath = path === "/" ? "/_root.data" : `${path.replace(/\/$/, "")}.data`;
    const normalized = `${basename}${dataPath}`.replace(/\/\/+/g, "/");
    const url = new URL(`http://localhost${normalized}`);
    if (onlyRoutes?.length) url.searchParams.set("_routes", onlyRoutes.join(","));
    const response = await handler(new Request(url, init));
    const data = await response.text();
    if (response.status !== 200 && response.status !== 202) {
      throw new Error(
        `Prerender (data): Received a ${response.status} status code while prerendering the \`${path}\` path.\n${normalized}\n${data}`,
      );
    }
    return { text: data, file: join(clientDir, ...normalized.split("/")) };
  }

  const REDIRECTS = new Set([301, 302, 303, 307, 308]);
  const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  // A page and its data from the cache, each linked with its compressed
  // copies ([file, name in the cache]): false when the cache has not got
  // them all, intact.
  function fromCache(files) {
    const sums = files.map(([, name]) => intactSums(name));
    if (sums.includes(null)) return false;
    files.forEach(([file, name], i) => {
      folderOf(file);
      // The compressed copies, where they were smaller.
      for (const ext of ["", ".gz", ".br"]) {
        if (ext in sums[i]) linkIfThere(join(pageCache, `${name}${ext}`), `${file}${ext}`);
        else removeFile(`${file}${ext}`);
      }
    });
    written.push(...files.map(([file]) => file));
    cached++;
    return true;
  }

  // The not-found page is the one page rendered with status 404 (its
  // route's loader answers 404: routes/not-found.tsx); it has no .data, as
  // no navigation fetches it.
  async function prerenderRoute(path, file, cacheName) {
    const normalized = `${basename}${path}/`.replace(/\/\/+/g, "/");
    rendered++;
    const response = await handler(new Request(`http://localhost${normalized}`));
    const wanted = path === notFound ? 404 : 200;
    let html = await response.text();
    if (REDIRECTS.has(response.status)) {
      // As React Router writes a redirect: a page that refreshes to it.
      const location = escapeHtml(response.headers.get("Location") ?? "");
      const delay = response.status === 302 ? 2 : 0;
      html = `<!doctype html>
<head>
<title>Redirecting to: ${location}</title>
<meta http-equiv="refresh" content="${delay};url=${location}">
<meta name="robots" content="noindex">
</head>
<body>
	<a href="${location}">
    Redirecting from <code>${escapeHtml(normalized)}</code> to <code>${location}</code>
  </a>
</body>
</html>`;
    } else if (response.status !== wanted) {
      throw new Error(
        `Prerender (html): Received a ${response.status} status code (not ${wanted}) while prerendering the \`${normalized}\` path.\n${html}`,
      );
    }
    write(file, html, cacheName);
  }

  async function prerenderResource(path) {
    const normalized = `${basename}${path}/`.replace(/\/\/+/g, "/").replace(/\/$/g, "");
    const response = await handler(new Request(`http://localhost${normalized}`));
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) {
      throw new Error(
        `Prerender (resource): Received a ${response.status} status code while prerendering the \`${normalized}\` path.\n${body.toString("utf8")}`,
      );
    }
    write(join(clientDir, ...normalized.split("/")), body);
  }

  const routes = routeTree(build.routes);
  async function renderPath(path) {
    const matches = matchRoutes(routes, `/${path}/`.replace(/^\/\/+/, "/"));
    if (!matches) throw new Error(`Unable to prerender path because it does not match any routes: ${path}`);
    const leaf = matches[matches.length - 1].route;
    const module = build.routes[leaf.id]?.module;
    const isResource = module && !module.default && !module.ErrorBoundary;
    if (isResource) {
      if (!module.loader) throw new Error(`Prerender: the resource route ${leaf.id} has no loader (${path})`);
      const data = await prerenderData(path, [leaf.id]);
      write(data.file, data.text);
      await prerenderResource(path);
    } else {
      const hasLoaders = matches.some((m) => build.assets.routes[m.route.id]?.hasLoader);
      const data = hasLoaders && path !== notFound ? await prerenderData(path, null) : undefined;
      // The not-found page has no data of its own: it shows the home
      // page's, so the home page's data keys it in the cache.
      const keyData = path === notFound ? (await prerenderData("/", null)).text : (data?.text ?? "");
      const key = createHash("sha256").update(`${code}\0${path}\0${keyData}`).digest("hex");
      const page = join(clientDir, ...`${basename}${path}/`.replace(/\/\/+/g, "/").split("/"), "index.html");
      const files = [[page, `${key}.html`], ...(data ? [[data.file, `${key}.data`]] : [])];
      if (fromCache(files)) return;
      if (data) write(data.file, data.text, `${key}.data`);
      // The page runs its loaders again rather than being handed their
      // output (React Router's X-React-Router-Prerender-Data header, which
      // each route's loader decodes whole, a third of a page's rendering):
      // the loaders only read the content, so they give what the .data has.
      await prerenderRoute(path, page, `${key}.html`);
    }
  }
  // A few paths at once: one renders while the others' files are
  // compressed and written.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < paths.length) await renderPath(paths[next++]);
    }),
  );

  // The SPA fallback: the root alone, for paths no page has.
  if (fallback) {
    const response = await handler(
      new Request(`http://localhost${basename}`, {
        headers: { "X-React-Router-SPA-Mode": "yes" },
      }),
    );
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`Prerender: Received a ${response.status} status code while prerendering __spa-fallback.html.\n${html}`);
    if (!html.includes("window.__reactRouterContext =") || !html.includes("window.__reactRouterRouteModules =")) {
      throw new Error("Prerender: the SPA fallback cannot hydrate: no <Scripts /> in the root route");
    }
    write(join(clientDir, prerender.includes("/") ? "__spa-fallback.html" : "index.html"), html);
  }

  return { written, rendered, cached };
}

function pretty(file) {
  return relative(web, file);
}
