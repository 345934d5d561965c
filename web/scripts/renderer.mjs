// The warm renderer: one long-lived Node process the studio's server
// starts (internal/publish/build/renderer.go) in a work dir of its own with
// this code's bundles, so that the build's steps, the content check of each
// save, the Markdown preview and the previews' pages run in a process whose
// modules are imported already, instead of starting Node (and esbuild, and
// the server bundle) for each.
//
// `node scripts/renderer.mjs --code=<hash>`: requests come as JSON lines on
// fd 3, answers go as JSON lines on fd 4 (contracts/renderer.json), so
// stdout and stderr stay the log. The end of fd 3 ends the process.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Socket } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { importTs } from "./run-ts.mjs";

/** The protocol: its version, ops, error kinds and default limits. */
export const PROTOCOL = JSON.parse(readFileSync(new URL("../../contracts/renderer.json", import.meta.url), "utf8"));

// This renderer's own web/: its scripts, its bundles (build/), its caches.
const home = fileURLToPath(new URL("..", import.meta.url));

/** A failure of one request, of one of PROTOCOL.errorKinds. */
export class RenderError extends Error {
  constructor(kind, message, problems) {
    super(message);
    this.kind = kind;
    if (problems) this.problems = problems;
  }
}

// A step's script, from the build script's own command: `node
// scripts/x.mjs` or `node scripts/run-ts.mjs scripts/x.ts`.
const STEP_COMMAND = /^node (?:scripts\/run-ts\.mjs )?(scripts\/[\w.-]+\.(?:mjs|ts))$/;
// A script the renderer can run exports run({web, contentDir, log}).
const EXPORTS_RUN = /^export\s+(?:async\s+)?function\s+run\s*\(/m;

function packageScripts() {
  return JSON.parse(readFileSync(join(home, "package.json"), "utf8")).scripts;
}

/** The file of step's script, when it is one the renderer can run, else null. */
export function stepScript(name, scripts = packageScripts()) {
  const file = STEP_COMMAND.exec(scripts[name] ?? "")?.[1];
  if (!file || !EXPORTS_RUN.test(readFileSync(join(home, file), "utf8"))) return null;
  return join(home, file);
}

/** The steps of the build script the renderer runs (the others run as commands). */
export function inProcessSteps(scripts = packageScripts()) {
  const steps = scripts.build.split("&&").map((part) => /^npm run (?:--silent )?(\S+)$/.exec(part.trim())?.[1]);
  return steps.filter((name) => name && stepScript(name, scripts));
}

// Each module once: the TypeScript compiled once (run-ts.mjs), the
// bundles' imports kept warm.
const modules = new Map();
function load(file) {
  if (!modules.has(file)) {
    const loading = file.endsWith(".ts") ? importTs(file) : import(file);
    loading.catch(() => modules.delete(file));
    modules.set(file, loading);
  }
  return modules.get(file);
}

let pool;
// The render pool (scripts/render-site.mjs), opened as the renderer starts:
// its workers import the server bundle once, for every build and preview.
function renderPool() {
  pool ??= load(join(home, "scripts", "render-site.mjs")).then(({ openRenderPool }) =>
    openRenderPool({ serverBuild: join(home, "build", "server", "index.js"), size: Math.min(2, availableParallelism()) }),
  );
  pool.catch(() => (pool = undefined));
  return pool;
}

const images = () => load(join(home, "scripts", "images.mjs"));
const imageCache = join(home, ".image-cache");

/** What each op does with its request; log(line) sends a step's lines. */
export const handlers = {
  hello: async ({ code }) => ({ code, pid: process.pid, rssMiB: Math.round(process.memoryUsage.rss() / 2 ** 20), steps: inProcessSteps() }),
  step: async ({ name, web, contentDir }, log) => {
    const file = stepScript(name);
    if (!file) throw new RenderError("code", `the build's step ${name} is not a script the renderer can run`);
    // The prerender renders with the warm workers (the others take no pool).
    await (await load(file)).run({ web, contentDir, log, pool: await renderPool() });
    return {};
  },
  check: async ({ contentDir }) => {
    const { checkProblems } = await load(join(home, "scripts", "check-content.ts"));
    return { problems: checkProblems(home, contentDir) };
  },
  markdown: async ({ contentDir, name, text }) => {
    const { previewMarkdown } = await load(join(home, "scripts", "preview-markdown.ts"));
    try {
      return { html: previewMarkdown(text, contentDir, name) };
    } catch (err) {
      // A text the build would refuse: the build's line.
      if (String(err?.message).startsWith("content/")) throw new RenderError("content", err.message, [err.message]);
      throw err;
    }
  },
  render: async ({ snapshot, paths }) => {
    const assetsDir = join(home, "build", "client", "assets");
    return { pages: await (await renderPool()).renderPages({ contentDir: snapshot.contentDir, generatedDir: snapshot.generatedDir, assetsDir, paths }) };
  },
  describe: async ({ contentDir, generatedDir }) => {
    await (await images()).describeImages({ contentDir, generatedDir, cacheDir: imageCache });
    return {};
  },
  // name: the file's path in the site, as the server asks for it (images/…
  // or /images/…).
  image: async ({ contentDir, name }) => ({
    file: await (await images()).makeVariant({
      contentDir,
      cacheDir: imageCache,
      name: `/${name.replace(/^\//, "")}`,
      outDir: join(home, ".preview-images"),
    }),
  }),
  encode: async ({ contentDir, srcs }) => {
    await (await images()).encodeImages({ contentDir, cacheDir: imageCache, srcs });
    return {};
  },
};

// The build's work (its steps, the encoding of photographs) runs one at a
// time, in order; a preview's (a page, the check of a save) runs at once,
// ahead of the build work still queued.
const BUILD_WORK = new Set(["step", "encode"]);
let buildQueue = Promise.resolve();
function inBuildQueue(job) {
  const done = buildQueue.then(job);
  buildQueue = done.catch(() => {});
  return done;
}

/** The answer's error for err: its kind, its message, and the content's problems. */
export function errorOf(err) {
  if (err instanceof RenderError) return { kind: err.kind, message: err.message, ...(err.problems && { problems: err.problems }) };
  if (Array.isArray(err?.problems)) return { kind: "content", message: err.message, problems: err.problems.map(String) };
  // A fault of the code: its stack to the log (the server's), its one line
  // to the studio, who sees it under "The preview could not be made".
  if (err instanceof Error && err.stack) console.error(err.stack);
  return { kind: "code", message: err instanceof Error ? err.message.split("\n")[0] : String(err) };
}

/** Answers one request line with send (answer objects, and a step's log lines). */
export async function answer(line, send, code) {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return send({ id: 0, ok: false, error: { kind: "code", message: `not a request: ${line.slice(0, 80)}` } });
  }
  const { id, op } = request;
  if (!Object.hasOwn(handlers, op)) return send({ id, ok: false, error: { kind: "code", message: `no op ${JSON.stringify(op)}` } });
  const log = (text) => send({ id, log: String(text) });
  const job = () => handlers[op]({ ...request, code }, log);
  try {
    send({ ...(await (BUILD_WORK.has(op) ? inBuildQueue(job) : job())), id, ok: true });
  } catch (err) {
    send({ id, ok: false, error: errorOf(err) });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The pages as the build renders them: React's production build, and
  // React Router's build-time headers honoured (as in scripts/prerender.mjs).
  process.env.NODE_ENV = "production";
  process.env.IS_RR_BUILD_REQUEST = "yes";
  const code = process.argv.find((arg) => arg.startsWith("--code="))?.slice("--code=".length) ?? "";
  const answers = new Socket({ fd: 4, readable: false, writable: true });
  const send = (message) => answers.write(JSON.stringify(message) + "\n");
  const requests = createInterface({ input: new Socket({ fd: 3, readable: true, writable: false }) });
  requests.on("line", (line) => void answer(line, send, code));
  // Warm before the first request: the workers with the server bundle,
  // the content check compiled (a failure here is the first request's).
  renderPool().catch(() => {});
  load(join(home, "scripts", "check-content.ts")).catch(() => {});
  // The server closed fd 3 (it stopped the renderer, or it ended).
  requests.on("close", () => process.exit(0));
}
