// A stand-in for web/scripts/renderer.mjs in renderer_test.go: it speaks
// the protocol (JSON lines, requests on fd 3, answers on fd 4) and fails on
// request: a render of /crash ends the process (so does a check of a
// folder named crash), of /hang never answers, of
// /grow takes memory until it is stopped; /keep takes 160 MiB, keeps it,
// and answers; /slow answers after 0.3 s. hello says its pid, code, work
// dir and environment.
import { Socket } from "node:net";
import { createInterface } from "node:readline";

const code = process.argv.find((arg) => arg.startsWith("--code="))?.slice("--code=".length);
const answers = new Socket({ fd: 4, readable: false, writable: true });
const send = (message) => answers.write(JSON.stringify(message) + "\n");
const kept = [];

const ops = {
  hello: () => ({ code, pid: process.pid, cwd: process.cwd(), env: process.env, steps: [] }),
  check: ({ contentDir }) => {
    if (contentDir.endsWith("/crash")) process.exit(3);
    return { problems: ["content/site.json: tagline: a fake problem"] };
  },
  render: async ({ paths }) => {
    if (paths.includes("/crash")) process.exit(3);
    if (paths.includes("/hang")) return new Promise(() => {});
    if (paths.includes("/grow")) {
      // At most 1 GiB, should the test fail to stop it.
      setInterval(() => kept.length < 64 && kept.push(Buffer.alloc(16 << 20, 1)), 5);
      return new Promise(() => {});
    }
    if (paths.includes("/keep")) kept.push(Buffer.alloc(160 << 20, 1));
    if (paths.includes("/slow")) await new Promise((done) => setTimeout(done, 300));
    return { pages: paths.map((path) => ({ path, status: 200, type: "text/html", body: `<p>${path}</p>`, data: null })) };
  },
};

const requests = createInterface({ input: new Socket({ fd: 3, readable: true, writable: false }) });
requests.on("line", async (line) => {
  const request = JSON.parse(line);
  const op = ops[request.op];
  if (!op) return send({ id: request.id, ok: false, error: { kind: "code", message: `no op ${request.op}` } });
  send({ ...(await op(request)), id: request.id, ok: true });
});
requests.on("close", () => process.exit(0));
