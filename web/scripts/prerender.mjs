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
// CONTENT_DIR: the content (default ../content); SERVER_BUILD: the server
// bundle (default build/server/index.js). The page paths come from the
// content's catalogue (app/lib/paths.ts, pagePaths).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";

const web = new URL("..", import.meta.url).pathname;
const contentDir = resolve(process.env.CONTENT_DIR ?? join(web, "..", "content"));
const serverBuild = resolve(process.env.SERVER_BUILD ?? join(web, "build", "server", "index.js"));
const clientDir = join(web, "build", "client");
// What the loaders read (app/lib/content.server.ts).
process.env.CONTENT_DIR = contentDir;
process.env.GENERATED_DIR ??= join(web, ".generated");
// React Router honours its build-time headers (X-React-Router-Prerender-Data,
// X-React-Router-SPA-Mode) only in a build, so marked.
process.env.IS_RR_BUILD_REQUEST = "yes";

const started = Date.now();

// The site's paths, by the same TypeScript as the browser tests use,
// compiled on the spot (a few milliseconds) rather than bundled.
async function sitePaths() {
  const { outputFiles } = await esbuild({
    stdin: {
      contents: `export { pagePaths, NOT_FOUND_PATH, SEARCH_INDEX_PATH, CHAT_SCRIPT_PATH } from "./app/lib/paths.ts";`,
      resolveDir: web,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  const paths = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
  const catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
  return [...paths.pagePaths(catalogue), paths.NOT_FOUND_PATH, paths.SEARCH_INDEX_PATH, paths.CHAT_SCRIPT_PATH];
}

const { createRequestHandler, matchRoutes } = await import("react-router");
const serverModule = await import(pathToFileURL(serverBuild).href);
const prerender = await sitePaths();
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

const pretty = (file) => relative(web, file);
let written = 0;
async function write(file, body) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, body);
  written++;
}

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
    throw new Error(`Prerender (data): Received a ${response.status} status code while prerendering the \`${path}\` path.\n${normalized}\n${data}`);
  }
  await write(join(clientDir, ...normalized.split("/")), data);
  return data;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function prerenderRoute(path, init) {
  const normalized = `${basename}${path}/`.replace(/\/\/+/g, "/");
  const response = await handler(new Request(`http://localhost${normalized}`, init));
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
  } else if (response.status !== 200) {
    throw new Error(`Prerender (html): Received a ${response.status} status code while prerendering the \`${normalized}\` path.\n${html}`);
  }
  await write(join(clientDir, ...normalized.split("/"), "index.html"), html);
}

async function prerenderResource(path) {
  const normalized = `${basename}${path}/`.replace(/\/\/+/g, "/").replace(/\/$/g, "");
  const response = await handler(new Request(`http://localhost${normalized}`));
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) {
    throw new Error(`Prerender (resource): Received a ${response.status} status code while prerendering the \`${normalized}\` path.\n${body.toString("utf8")}`);
  }
  await write(join(clientDir, ...normalized.split("/")), body);
}

const routes = routeTree(build.routes);
for (const path of prerender) {
  const matches = matchRoutes(routes, `/${path}/`.replace(/^\/\/+/, "/"));
  if (!matches) throw new Error(`Unable to prerender path because it does not match any routes: ${path}`);
  const leaf = matches[matches.length - 1].route;
  const module = build.routes[leaf.id]?.module;
  const isResource = module && !module.default && !module.ErrorBoundary;
  if (isResource) {
    if (!module.loader) throw new Error(`Prerender: the resource route ${leaf.id} has no loader (${path})`);
    await prerenderData(path, [leaf.id]);
    await prerenderResource(path);
  } else {
    const hasLoaders = matches.some((m) => build.assets.routes[m.route.id]?.hasLoader);
    const data = hasLoaders ? await prerenderData(path, null) : undefined;
    await prerenderRoute(path, data ? { headers: { "X-React-Router-Prerender-Data": encodeURI(data) } } : undefined);
  }
}

// The SPA fallback: the root alone, for paths no page has.
{
  const response = await handler(new Request(`http://localhost${basename}`, { headers: { "X-React-Router-SPA-Mode": "yes" } }));
  const html = await response.text();
  if (response.status !== 200) throw new Error(`Prerender: Received a ${response.status} status code while prerendering __spa-fallback.html.\n${html}`);
  if (!html.includes("window.__reactRouterContext =") || !html.includes("window.__reactRouterRouteModules =")) {
    throw new Error("Prerender: the SPA fallback cannot hydrate: no <Scripts /> in the root route");
  }
  await write(join(clientDir, prerender.includes("/") ? "__spa-fallback.html" : "index.html"), html);
}

console.log(`prerender: ${prerender.length} paths, ${written} files in ${pretty(clientDir)} from ${pretty(contentDir) || contentDir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
