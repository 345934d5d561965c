import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { PROTOCOL, answer, errorOf, handlers, RenderError } from "./renderer.mjs";

const web = fileURLToPath(new URL("..", import.meta.url));

describe("the renderer's protocol", () => {
  it("handles exactly the ops of contracts/renderer.json", () => {
    expect(Object.keys(handlers).sort()).toEqual([...PROTOCOL.ops].sort());
  });

  it("says its failures in the kinds of contracts/renderer.json", () => {
    const kinds = [
      errorOf(new Error("a bug")).kind,
      errorOf(Object.assign(new Error("2 problems"), { problems: ["content/site.json: a", "content/site.json: b"] })).kind,
      errorOf(new RenderError("content", "content/pages/about.md: no fact", ["content/pages/about.md: no fact"])).kind,
    ];
    expect(kinds).toEqual(["code", "content", "content"]);
    for (const kind of kinds) expect(PROTOCOL.errorKinds).toContain(kind);
  });

  it("says a fault of the code in its one line, its stack left to the log", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const fault = new TypeError("images.describeImages is not a function");
      expect(errorOf(fault)).toEqual({ kind: "code", message: "images.describeImages is not a function" });
      expect(error).toHaveBeenCalledWith(fault.stack);
    } finally {
      error.mockRestore();
    }
  });

  it("answers a preview ahead of the build work queued", async () => {
    const { step, check } = handlers;
    let finishStep = () => {};
    handlers.step = () => new Promise((resolve) => (finishStep = () => resolve({})));
    handlers.check = async () => ({ problems: [] });
    try {
      const sent: { id: number; ok: boolean }[] = [];
      const send = (message: { id: number; ok: boolean }) => void sent.push(message);
      const steps = [answer(JSON.stringify({ id: 1, op: "step" }), send), answer(JSON.stringify({ id: 2, op: "step" }), send)];
      await answer(JSON.stringify({ id: 3, op: "check" }), send);
      expect(sent.map((m) => m.id)).toEqual([3]); // the steps still run, one at a time
      finishStep();
      await steps[0];
      await new Promise((resolve) => setImmediate(resolve));
      finishStep(); // the second step, started after the first
      await Promise.all(steps);
      expect(sent.map((m) => [m.id, m.ok])).toEqual([
        [3, true],
        [1, true],
        [2, true],
      ]);
    } finally {
      Object.assign(handlers, { step, check });
    }
  });
});

describe("the renderer process", () => {
  const content = mkdtempSync(join(tmpdir(), "renderer-content-"));
  cpSync(join(web, "..", "content"), content, { recursive: true });
  // Requests on fd 3, answers on fd 4, as the server starts it.
  const child = spawn(process.execPath, [join(web, "scripts", "renderer.mjs"), "--code=test"], {
    cwd: web,
    stdio: ["ignore", "inherit", "inherit", "pipe", "pipe"],
  });
  const requests = child.stdio[3] as Writable;
  const answers = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdio[4] as Readable }).on("line", (line) => {
    const message = JSON.parse(line);
    if (!("log" in message)) answers.get(message.id)?.(message);
  });
  let id = 0;
  const ask = (request: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      answers.set(++id, resolve);
      requests.write(JSON.stringify({ ...request, id }) + "\n");
    });
  afterAll(() => {
    requests.end(); // its end: the renderer ends
    rmSync(content, { recursive: true, force: true });
  });

  it("says its code, and runs the build's steps that export run()", async () => {
    const hello = await ask({ op: "hello" });
    expect(hello).toMatchObject({ ok: true, code: "test", pid: child.pid });
    expect(hello.steps).toEqual(expect.arrayContaining(["check", "compress"]));
    expect(hello.steps).not.toContain("bundle");
  });

  it("checks a content, and says its problems as the check does", async () => {
    expect(await ask({ op: "check", contentDir: content })).toMatchObject({ ok: true, problems: [] });
    const broken = await ask({ op: "check", contentDir: join(content, "missing") });
    expect(broken.ok).toBe(true);
    expect((broken.problems as string[]).length).toBeGreaterThan(0);
    for (const line of broken.problems as string[]) expect(line).toMatch(/^content\//);
  });

  it("renders Markdown, and refuses a fact that does not exist with the build's line", async () => {
    const good = await ask({ op: "markdown", contentDir: content, name: "pages/about.md", text: "---\ntitle: Our story\n---\n\nHello.\n" });
    expect(good).toMatchObject({ ok: true });
    expect(good.html).toContain("<h1>Our story</h1>");
    const bad = await ask({ op: "markdown", contentDir: content, name: "pages/about.md", text: "At {{site.mail}}.\n" });
    expect(bad).toMatchObject({ ok: false, error: { kind: "content" } });
    expect((bad.error as { problems: string[] }).problems[0]).toMatch(/^content\/pages\/about\.md: \{\{site\.mail\}\} names no fact/);
  });

  it("refuses an op it does not know, and a step that is not a script of its own", async () => {
    expect(await ask({ op: "reboot" })).toMatchObject({ ok: false, error: { kind: "code" } });
    expect(await ask({ op: "step", name: "bundle", web, contentDir: content })).toMatchObject({ ok: false, error: { kind: "code" } });
  });
});
