// One worker of a render pool (scripts/render-site.mjs): it imports the
// server bundle once and then renders, job after job, the pages of any
// content snapshot it is given, as React Router's own prerender
// (@react-router/dev, handlePrerender and handleSpaMode) writes them. Each
// request runs inside its snapshot (app/lib/snapshot.server.ts), which
// also records what the page read.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { compressPage } from "./compression.mjs";
import { firstPaint } from "./first-paint.mjs";
import { linkIfThere, removeFile, stampOf, writeNewFile } from "./files.mjs";
import { FALLBACK, SUMS, discard, intactSums, sha256 } from "./page-cache.mjs";

// React's production build: its development build renders the same pages
// at half the speed. React Router honours its build-time headers
// (X-React-Router-Prerender-Data, X-React-Router-SPA-Mode) only in a
// build, so marked. Both before React and React Router are imported.
process.env.NODE_ENV = "production";
process.env.IS_RR_BUILD_REQUEST = "yes";

const { createRequestHandler, isRouteErrorResponse, matchRoutes } = await import("react-router");
const serverModule = await import(pathToFileURL(workerData.serverBuild).href);
// The bundle's snapshot context (app/lib/snapshot.server.ts).
const hub = globalThis[Symbol.for("studio.snapshot")];
if (!hub?.storage) throw new Error(`render: ${workerData.serverBuild} has no snapshot context (app/lib/snapshot.server.ts): bundle the code again`);

// The bundle is kept as an ssr: true build (react-router.config.ts); the
// pages are rendered as ssr: false with the content's list of paths, as
// the prerender would. The list is the render's own (one worker renders
// any content), read by React Router at each request.
// A loader's error is printed as React Router prints it, and kept by the
// render it stopped: one that names a file of content/ is the content's
// problem (failed, below), said in the build's words.
const build = {
  ...serverModule,
  ssr: false,
  isSpaMode: false,
  get prerender() {
    return hub.storage.getStore()?.prerender ?? [];
  },
  entry: {
    ...serverModule.entry,
    module: {
      ...serverModule.entry.module,
      handleError(error, { request }) {
        const cause = isRouteErrorResponse(error) && error.error ? error.error : error;
        hub.storage.getStore()?.errors?.push(cause);
        if (!request.signal.aborted) console.error(cause);
      },
    },
  },
};
const handler = createRequestHandler(build, "production");
const { basename, future } = build;
const routes = routeTree(build.routes);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

// What a path is: a page (with loaders or not) or a resource route.
function routeOf(path) {
  const matches = matchRoutes(routes, `/${path}/`.replace(/^\/\/+/, "/"));
  if (!matches) throw new Error(`Unable to prerender path because it does not match any routes: ${path}`);
  const leaf = matches[matches.length - 1].route;
  const module = build.routes[leaf.id]?.module;
  const resource = Boolean(module && !module.default && !module.ErrorBoundary);
  if (resource && !module.loader) throw new Error(`Prerender: the resource route ${leaf.id} has no loader (${path})`);
  return { leaf, resource, hasLoaders: matches.some((m) => build.assets.routes[m.route.id]?.hasLoader) };
}

// Time spent per phase, for PRERENDER_PROFILE (ms, summed over the lanes).
const newProfile = () => ({ data: 0, html: 0, firstPaint: 0, compress: 0, write: 0, cacheCheck: 0 });
async function timed(profile, phase, work) {
  const start = performance.now();
  try {
    return await work();
  } finally {
    profile[phase] += performance.now() - start;
  }
}

// The error of a request that failed: with the loaders' errors it met,
// and, when they name files of content/ ("content/images/x.jpg: ..."),
// those lines as its problems, as the content check gives its own.
function failed(message) {
  const causes = hub.storage.getStore()?.errors ?? [];
  const err = new Error([message, ...causes.map((c) => c?.message ?? String(c))].join("\n"));
  const problems = causes.map((c) => String(c?.message ?? c).split("\n")[0]).filter((line) => line.startsWith("content/"));
  if (problems.length > 0) err.problems = problems;
  return err;
}

// A path's data (React Router's .data file) and where it goes.
async function prerenderData(clientDir, path, onlyRoutes) {
  let dataPath;
  if (future.v8_trailingSlashAwareDataRequests) dataPath = path.endsWith("/") ? `${path}_.data` : `${path}.data`;
  else dataPath = path === "/" ? "/_root.data" : `${path.replace(/\/$/, "")}.data`;
  const normalized = `${basename}${dataPath}`.replace(/\/\/+/g, "/");
  const url = new URL(`http://localhost${normalized}`);
  if (onlyRoutes?.length) url.searchParams.set("_routes", onlyRoutes.join(","));
  const response = await handler(new Request(url));
  const data = await response.text();
  if (response.status !== 200 && response.status !== 202) {
    throw failed(`Prerender (data): Received a ${response.status} status code while prerendering the \`${path}\` path.\n${normalized}\n${data}`);
  }
  return { text: data, file: clientDir && join(clientDir, ...normalized.split("/")) };
}

// A page's HTML. The not-found pages are the pages rendered with status
// 404 (their routes' loaders answer 404: routes/not-found.tsx, routes/product.tsx).
async function prerenderHtml(path, wanted) {
  const normalized = `${basename}${path}/`.replace(/\/\/+/g, "/");
  const response = await handler(new Request(`http://localhost${normalized}`));
  const html = await response.text();
  if (REDIRECTS.has(response.status)) {
    // As React Router writes a redirect: a page that refreshes to it.
    const location = escapeHtml(response.headers.get("Location") ?? "");
    const delay = response.status === 302 ? 2 : 0;
    return `<!doctype html>
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
  }
  if (response.status !== wanted) {
    throw failed(`Prerender (html): Received a ${response.status} status code (not ${wanted}) while prerendering the \`${normalized}\` path.\n${html}`);
  }
  return html;
}

// A resource route's body, and where it goes.
const resourcePath = (path) => `${basename}${path}/`.replace(/\/\/+/g, "/").replace(/\/$/g, "");
async function prerenderResource(path) {
  const normalized = resourcePath(path);
  const response = await handler(new Request(`http://localhost${normalized}`));
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) {
    throw failed(`Prerender (resource): Received a ${response.status} status code while prerendering the \`${normalized}\` path.\n${body.toString("utf8")}`);
  }
  return { body, type: response.headers.get("Content-Type") };
}

// The SPA fallback: the root alone, for paths no page has.
async function prerenderFallback() {
  const response = await handler(new Request(`http://localhost${basename}`, { headers: { "X-React-Router-SPA-Mode": "yes" } }));
  const html = await response.text();
  if (response.status !== 200) throw new Error(`Prerender: Received a ${response.status} status code while prerendering __spa-fallback.html.\n${html}`);
  if (!html.includes("window.__reactRouterContext =") || !html.includes("window.__reactRouterRouteModules =")) {
    throw new Error("Prerender: the SPA fallback cannot hydrate: no <Scripts /> in the root route");
  }
  return html;
}

// A share of a site's render (render-site.mjs, renderSite): each job is a
// path to render, or to link from the page cache by the files an index
// names (and rendered when they fail their check). Each page rendered
// comes back with the keys it read and their hashes.
async function site({ fresh, contentDir, generatedDir, clientDir, pageCache, code, prerender, notFound, jobs }) {
  const snapshot = hub.open({ contentDir, generatedDir, fresh });
  const profile = newProfile();
  const written = [];
  const rows = {};
  const notes = [];
  let rendered = 0;
  let cached = 0;
  const made = new Set(); // the folders made
  function folderOf(file) {
    if (!made.has(dirname(file))) mkdirSync(dirname(file), { recursive: true });
    made.add(dirname(file));
  }
  const cacheRel = relative(dirname(pageCache), pageCache);
  // The stamps of the cache's files this share checked or wrote, by name
  // (files.mjs, stampOf), for the index.
  const stamps = new Map();
  const checked = (name, known) => {
    const start = performance.now();
    const intact = intactSums(pageCache, name, (problem) => notes.push(`prerender: the cached page ${cacheRel}/${name} failed its check (${problem}); rendered again`), known);
    if (intact) stamps.set(name, intact.stamps);
    profile.cacheCheck += performance.now() - start;
    return intact?.sums ?? null;
  };

  // Writes a file with its compressed copies (where smaller), read-only,
  // and links them into the page cache as cacheName, with the sidecar of
  // their hashes (written last: a page without one is not used).
  function write(file, text, cacheName) {
    let start = performance.now();
    const body = Buffer.from(file.endsWith(".html") ? firstPaint(text, join(clientDir, "assets")) : text);
    profile.firstPaint += performance.now() - start;
    start = performance.now();
    const { gz, br } = compressPage(body);
    profile.compress += performance.now() - start;
    start = performance.now();
    folderOf(file);
    const copies = { "": body };
    for (const [ext, copy] of [[".gz", gz], [".br", br]]) if (copy.length < body.length) copies[ext] = copy;
    for (const ext of ["", ".gz", ".br"]) {
      if (copies[ext]) writeNewFile(`${file}${ext}`, copies[ext], 0o444);
      else removeFile(`${file}${ext}`);
    }
    written.push(file);
    discard(pageCache, cacheName); // what was cached under this name, whole or not
    const sums = {};
    const stamped = {};
    for (const [ext, bytes] of Object.entries(copies)) {
      linkIfThere(`${file}${ext}`, join(pageCache, `${cacheName}${ext}`));
      sums[ext] = sha256(bytes);
      stamped[ext] = stampOf(join(pageCache, `${cacheName}${ext}`));
    }
    stamps.set(cacheName, stamped);
    writeNewFile(join(pageCache, `${cacheName}${SUMS}`), JSON.stringify(sums), 0o444);
    profile.write += performance.now() - start;
  }

  // Files from the cache, each linked with its compressed copies ([file,
  // name in the cache]): false when the cache has not got them all, intact.
  function fromCache(files) {
    const sums = files.map(([, name, known]) => checked(name, known));
    if (sums.includes(null)) return false;
    files.forEach(([file, name], i) => {
      folderOf(file);
      for (const ext of ["", ".gz", ".br"]) {
        if (ext in sums[i]) linkIfThere(join(pageCache, `${name}${ext}`), `${file}${ext}`);
        else removeFile(`${file}${ext}`);
      }
    });
    written.push(...files.map(([file]) => file));
    return true;
  }

  const keyOf = (path, text) => createHash("sha256").update(`${code}\0${path}\0${text}`).digest("hex");
  const data = (path, onlyRoutes) => timed(profile, "data", () => prerenderData(clientDir, path, onlyRoutes));
  const pageFile = (path) => join(clientDir, ...`${basename}${path}/`.replace(/\/\/+/g, "/").split("/"), "index.html");

  // A path rendered, its data first: its files are taken from the cache
  // when its data is what a build rendered before (a page's HTML depends
  // only on the code and its data). Gives its files.
  async function renderPath(path) {
    if (path === FALLBACK) {
      const html = await timed(profile, "html", prerenderFallback);
      const files = [[join(clientDir, prerender.includes("/") ? "__spa-fallback.html" : "index.html"), `${keyOf(path, html)}.html`]];
      write(files[0][0], html, files[0][1]);
      return files;
    }
    const { leaf, resource, hasLoaders } = routeOf(path);
    if (resource) {
      const d = await data(path, [leaf.id]);
      const key = keyOf(path, d.text);
      const files = [[d.file, `${key}.data`], [join(clientDir, ...resourcePath(path).split("/")), `${key}.body`]];
      if (fromCache(files)) return files;
      write(d.file, d.text, `${key}.data`);
      const { body } = await timed(profile, "html", () => prerenderResource(path));
      write(files[1][0], body, files[1][1]);
      return files;
    }
    const d = hasLoaders && !(path in notFound) ? await data(path, null) : undefined;
    // A not-found page has no data of its own: it shows another page's
    // (the home page's, the products list's), whose data keys it in the cache.
    const key = keyOf(path, path in notFound ? (await data(notFound[path], null)).text : (d?.text ?? ""));
    const files = [[pageFile(path), `${key}.html`], ...(d ? [[d.file, `${key}.data`]] : [])];
    if (fromCache(files)) {
      cached++;
      return files;
    }
    if (d) write(d.file, d.text, `${key}.data`);
    // The page runs its loaders again rather than being handed their
    // output (React Router's X-React-Router-Prerender-Data header, which
    // each route's loader decodes whole, a third of a page's rendering):
    // the loaders only read the content, so they give what the .data has.
    rendered++;
    const html = await timed(profile, "html", () => prerenderHtml(path, path in notFound ? 404 : 200));
    write(files[0][0], html, files[0][1]);
    return files;
  }

  const relFiles = (files) => files.map(([file, name]) => [relative(clientDir, file), name, stamps.get(name) ?? {}]);
  async function runJob(job) {
    if (job.files) {
      const files = job.files.map(([rel, name, known]) => [join(clientDir, rel), name, known]);
      if (fromCache(files)) {
        if (job.path !== FALLBACK && !routeOf(job.path).resource) cached++;
        rows[job.path] = { deps: job.deps, files: relFiles(files) };
        return;
      }
    }
    const store = { snapshot, deps: new Set(), prerender, errors: [] };
    const files = await hub.storage.run(store, () => renderPath(job.path));
    const deps = [...store.deps].sort();
    rows[job.path] = { deps, hashes: Object.fromEntries(deps.map((key) => [key, hub.hashOf(snapshot, key)])), files: relFiles(files) };
  }

  // A few paths at once: one renders while the others' files are
  // compressed and written.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < jobs.length) await runJob(jobs[next++]);
    }),
  );
  return { written, rendered, cached, rows, notes, profile };
}

// The hashes keys have in a snapshot (null: unknown, so changed).
function hashes({ fresh, contentDir, generatedDir, keys }) {
  const snapshot = hub.open({ contentDir, generatedDir, fresh });
  return Object.fromEntries(keys.map((key) => [key, hub.recompute(snapshot, key)]));
}

// Pages of a snapshot as they are served, for previews: each job is
// {path, as}, the path asked for and the page that answers it.
async function pages({ contentDir, generatedDir, fresh, assetsDir, prerender, notFound, gone, jobs }) {
  const snapshot = hub.open({ contentDir, generatedDir, fresh });
  const out = [];
  for (const { path, as } of jobs) {
    const store = { snapshot, deps: new Set(), prerender, errors: [] };
    out.push(await hub.storage.run(store, () => page(path, as, assetsDir, notFound, gone)));
    out.at(-1).deps = [...store.deps].sort();
  }
  return out;
}

// A removed product's page renders as any page, and is served with 410
// (the live server's rule: internal/server, markGone).
async function page(path, as, assetsDir, notFound, gone = []) {
  const { leaf, resource, hasLoaders } = routeOf(as);
  if (resource) {
    const d = await prerenderData(null, as, [leaf.id]);
    const { body, type } = await prerenderResource(as);
    return { path, status: 200, type, body: body.toString("utf8"), data: d.text };
  }
  const d = hasLoaders && !(as in notFound) ? await prerenderData(null, as, null) : null;
  const html = await prerenderHtml(as, as in notFound ? 404 : 200);
  const status = as in notFound ? 404 : gone.includes(as) ? 410 : 200;
  return { path, status, type: "text/html; charset=utf-8", body: firstPaint(html, assetsDir), data: d?.text ?? null };
}

const ops = { site, hashes, pages, forget: (snapshot) => hub.forget(snapshot) };
parentPort.on("message", async ({ id, op, ...args }) => {
  try {
    parentPort.postMessage({ id, ok: true, value: await ops[op](args) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: { message: err?.message ?? String(err), stack: err?.stack, problems: err?.problems } });
  }
});
parentPort.postMessage({ id: 0, ok: true });
