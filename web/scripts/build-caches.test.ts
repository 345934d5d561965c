import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The prerender's page cache and the compression's cache, damaged, on the
// real scripts: a scratch copy of web/ (as the server's builder makes one)
// builds the content from the bundles `make build` made, and each build's
// build/client is moved out as a release, as the builder moves it.
const web = fileURLToPath(new URL("..", import.meta.url));
const bundle = join(web, "build", "server", "index.js");
let dir: string;
let scratch: string;
let releases = 0;

type Built = { release: string; stdout: string; stderr: string };
async function build(): Promise<Built> {
  await rm(join(scratch, "build", "client"), { recursive: true, force: true });
  await cp(join(web, "build", "client", "assets"), join(scratch, "build", "client", "assets"), { recursive: true });
  const env = { ...process.env, CONTENT_DIR: join(dir, "content"), PRERENDER_WORKERS: "1" };
  let stdout = "";
  let stderr = "";
  for (const script of ["prerender.mjs", "compress.mjs"]) {
    const out = await promisify(execFile)("node", [join(scratch, "scripts", script)], { cwd: scratch, env });
    stdout += out.stdout;
    stderr += out.stderr;
  }
  const release = join(dir, `release-${++releases}`);
  await rename(join(scratch, "build", "client"), release);
  return { release, stdout, stderr };
}

const sameInode = async (a: string, b: string) => (await stat(a)).ino === (await stat(b)).ino;
const rendered = (built: Built) => Number(/pages: (\d+) rendered/.exec(built.stdout)?.[1]);

// Damage done through a file's path, as a person mending a release by hand
// would (making it writable first; root needs not).
const damages: [string, (file: string) => Promise<void>][] = [
  ["truncated to 100 bytes", (file) => chmod(file, 0o644).then(() => truncate(file, 100))],
  ["a byte changed", async (file) => {
    await chmod(file, 0o644);
    const body = await readFile(file);
    const at = body.length >> 1;
    body[at] = body[at]! ^ 0x20;
    await writeFile(file, body); // opened for writing: the same file
  }],
  ["written over", (file) => chmod(file, 0o644).then(() => writeFile(file, "<p>not the page</p>"))],
];

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error(`${bundle}: not there; make build makes the bundles this test renders with (make test does it first)`);
  dir = await mkdtemp(join(tmpdir(), "build-caches-"));
  scratch = join(dir, "web");
  await mkdir(join(scratch, "build"), { recursive: true });
  for (const sub of ["scripts", "app", ".generated"]) await cp(join(web, sub), join(scratch, sub), { recursive: true });
  await cp(join(web, "build", "server"), join(scratch, "build", "server"), { recursive: true });
  await symlink(join(web, "node_modules"), join(scratch, "node_modules"));
  await cp(join(web, "..", "content"), join(dir, "content"), { recursive: true });
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a damaged page cache is rendered again, never linked into a new release", () => {
  let latest: Built;
  const pageCache = () => join(scratch, ".page-cache");
  // The home page's file in the cache (the release's is a link to it).
  const cachedHome = async (release: string) => {
    const home = await stat(join(release, "index.html"));
    for (const name of await readdir(pageCache())) {
      if (name.endsWith(".html") && (await stat(join(pageCache(), name))).ino === home.ino) return join(pageCache(), name);
    }
    throw new Error(`${release}/index.html is not linked from the page cache`);
  };

  beforeAll(async () => {
    latest = await build();
  }, 120_000);

  it("links a page and its compressed copies from the cache, read-only, with a sidecar of their SHA-256", async () => {
    const again = await build();
    expect(rendered(again)).toBe(0);
    const cached = await cachedHome(again.release);
    for (const ext of ["", ".gz", ".br"]) {
      expect(await sameInode(join(again.release, `index.html${ext}`), `${cached}${ext}`), ext).toBe(true);
      expect(((await stat(`${cached}${ext}`)).mode & 0o777).toString(8), ext).toBe("444");
    }
    expect(Object.keys(JSON.parse(await readFile(`${cached}.sha256`, "utf8")))).toEqual(["", ".gz", ".br"]);
    latest = again;
  }, 120_000);

  for (const [what, damage] of damages) {
    for (const ext of ["", ".br"]) {
      it(`index.html${ext} ${what} in a release: the next build renders the page again`, async () => {
        const damaged = join(latest.release, `index.html${ext}`);
        const good = await readFile(damaged);
        await damage(damaged);
        const next = await build();
        expect(next.stderr).toMatch(new RegExp(`the cached page .*failed its check \\([0-9a-f]{64}\\.html${ext.replace(".", "\\.")} has not the SHA-256`));
        expect(rendered(next)).toBe(1);
        const now = join(next.release, `index.html${ext}`);
        expect(await readFile(now)).toEqual(good);
        expect(await sameInode(now, damaged), "the new release links the damaged file").toBe(false);
        expect((await readFile(damaged)).equals(good), "the damaged release was mended in place").toBe(false);
        if (ext === ".br") expect(brotliDecompressSync(await readFile(now))).toEqual(await readFile(join(next.release, "index.html")));
        latest = next;
      }, 120_000);
    }
  }

  it("a sidecar that is not whole: the page is rendered again", async () => {
    const sidecar = `${await cachedHome(latest.release)}.sha256`;
    await rm(sidecar);
    await writeFile(sidecar, '{"":');
    const next = await build();
    expect(next.stderr).toMatch(/\.html\.sha256 is not whole/);
    expect(rendered(next)).toBe(1);
    latest = next;
  }, 120_000);

  it("whole again, every page is linked from the cache without a word", async () => {
    const next = await build();
    expect(rendered(next)).toBe(0);
    expect(next.stderr).toBe("");
  }, 120_000);
});

describe("a damaged compression cache is compressed again", () => {
  // The largest script of the bundles, and its brotli entry in the cache.
  const largest = async (release: string) => {
    const assets = join(release, "assets");
    let best = { name: "", size: 0 };
    for (const name of await readdir(assets)) {
      const { size } = await stat(join(assets, name));
      if (name.endsWith(".js") && size > best.size) best = { name, size };
    }
    return join(assets, best.name);
  };
  const entryOf = async (file: string) => {
    return join(scratch, ".compress-cache", `${createHash("sha256").update(await readFile(file)).digest("hex")}.br11`);
  };

  it.each(damages)("an entry %s", async (_, damage) => {
    const first = await build();
    const script = await largest(first.release);
    const entry = await entryOf(script);
    expect(brotliDecompressSync(await readFile(`${script}.br`))).toEqual(await readFile(script));
    expect((await stat(entry)).mode & 0o777).toBe(0o444);
    await damage(entry);

    const next = await build();
    const now = join(next.release, "assets", script.split("/").at(-1)!);
    expect(next.stderr).toMatch(/compress: the cached br of assets\/.*\.js \(.compress-cache\/[0-9a-f]{64}\.br11\) does not decompress to it/);
    expect(brotliDecompressSync(await readFile(`${now}.br`))).toEqual(await readFile(now));
    expect(brotliDecompressSync(await readFile(entry))).toEqual(await readFile(now));
    expect((await stat(entry)).mode & 0o777).toBe(0o444);
  }, 180_000);
});
