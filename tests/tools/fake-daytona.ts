import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface DaytonaCall {
  method: string;
  path: string;
  authorization: string | undefined;
  /** JSON bodies parsed; multipart uploads as `{ path: content }`. */
  body: any;
}

export interface FakeSandbox {
  id: string;
  name: string;
  state: string;
  labels: Record<string, string>;
  env: Record<string, string>;
  networkBlockAll: boolean;
  networkAllowList?: string;
  snapshot?: string;
  /** The host folder standing for the sandbox's `/`. */
  root: string;
  created: any;
}

/** Absolute paths inside a sandbox that the fake keeps under the sandbox's own host folder. */
const MAPPED = ["/workspace", "/tmp/code-tools"];

/**
 * A scripted Daytona on a real socket, speaking what `@daytonaio/sdk` calls: the control plane
 * under `/api` (`POST /sandbox`, `GET /sandbox/{idOrName}`, `POST /sandbox/{id}/start|stop`,
 * `POST /sandbox/{id}/network-settings`, `DELETE /sandbox/{id}`) and each sandbox's toolbox under
 * `/toolbox/{id}` (`POST /process/execute`, `POST /files/bulk-upload`, `POST /files/bulk-download`).
 * Like the real daemon, `/process/execute` runs no shell: it splits the line on spaces, honouring
 * quotes, and starts the program. A sandbox is a host folder: the paths in MAPPED are kept under
 * it (a `base64` on the commands' PATH maps them in decoded scripts, outputs map them back), so
 * two sessions' sandboxes never share a file. A wrong bearer key gets 401; every call is recorded.
 */
export async function startFakeDaytona(apiKey: string): Promise<{
  url: string;
  apiUrl: string;
  calls: DaytonaCall[];
  sandboxes: Map<string, FakeSandbox>;
  close(): Promise<void>;
}> {
  const calls: DaytonaCall[] = [];
  const sandboxes = new Map<string, FakeSandbox>();
  const home = mkdtempSync(join(tmpdir(), "fake-daytona-"));
  const shims = join(home, "bin");
  mkdirSync(shims);
  let url = "";

  const byIdOrName = (key: string) => sandboxes.get(key) ?? [...sandboxes.values()].find((s) => s.name === key);
  const dto = (s: FakeSandbox) => ({
    id: s.id,
    name: s.name,
    organizationId: "org_fake",
    state: s.state,
    labels: s.labels,
    env: s.env,
    networkBlockAll: s.networkBlockAll,
    networkAllowList: s.networkAllowList,
    snapshot: s.snapshot,
    user: "daytona",
    public: false,
    target: "us",
    cpu: 1,
    gpu: 0,
    memory: 1,
    disk: 3,
    recoverable: false,
    toolboxProxyUrl: `${url}/toolbox`,
    createdAt: new Date().toISOString(),
  });
  const toHost = (s: FakeSandbox, path: string) =>
    MAPPED.some((m) => path === m || path.startsWith(`${m}/`)) ? join(s.root, path) : path;
  const fromHost = (s: FakeSandbox, text: string) => text.split(s.root).join("");

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url ?? "/", "http://daytona").pathname;
    const type = String(req.headers["content-type"] ?? "");
    const call: DaytonaCall = {
      method: req.method ?? "",
      path,
      authorization: req.headers.authorization,
      body: undefined,
    };
    calls.push(call);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (type.startsWith("multipart/form-data")) {
      const form = await new Request("http://daytona/", {
        method: "POST",
        headers: { "content-type": type },
        body: raw,
      }).formData();
      const upload: Record<string, string> = {};
      for (let i = 0; form.has(`files[${i}].path`); i++)
        upload[String(form.get(`files[${i}].path`))] = await (form.get(`files[${i}].file`) as Blob).text();
      call.body = upload;
    } else if (raw.length) {
      call.body = JSON.parse(raw.toString("utf8"));
    }
    if (call.authorization !== `Bearer ${apiKey}`)
      return reply(401, { statusCode: 401, message: "Invalid credentials", error: "Unauthorized" });

    const api = /^\/api\/sandbox(?:\/([^/]+))?(?:\/([a-z-]+))?$/.exec(path);
    if (api) {
      const [, key, action] = api;
      if (req.method === "POST" && !key) {
        const body = call.body;
        if ([...sandboxes.values()].some((s) => s.name === body.name))
          return reply(409, { statusCode: 409, message: `Sandbox with name ${body.name} already exists` });
        const id = randomUUID();
        const sandbox: FakeSandbox = {
          id,
          name: body.name ?? id,
          state: "started",
          labels: body.labels ?? {},
          env: body.env ?? {},
          networkBlockAll: Boolean(body.networkBlockAll),
          networkAllowList: body.networkAllowList,
          snapshot: body.snapshot,
          root: join(home, id),
          created: body,
        };
        mkdirSync(sandbox.root);
        sandboxes.set(id, sandbox);
        return reply(200, dto(sandbox));
      }
      const sandbox = key ? byIdOrName(decodeURIComponent(key)) : undefined;
      if (!sandbox) return reply(404, { statusCode: 404, message: `Sandbox with ID or name ${key} not found` });
      if (req.method === "GET" && !action) return reply(200, dto(sandbox));
      if (req.method === "DELETE" && !action) {
        sandboxes.delete(sandbox.id);
        rmSync(sandbox.root, { recursive: true, force: true });
        return reply(200, { ...dto(sandbox), state: "destroyed" });
      }
      if (req.method === "POST" && action === "start") {
        sandbox.state = "started";
        return reply(200, dto(sandbox));
      }
      if (req.method === "POST" && action === "stop") {
        sandbox.state = "stopped";
        return reply(200, dto(sandbox));
      }
      if (req.method === "POST" && action === "network-settings") {
        if (call.body.networkBlockAll !== undefined) sandbox.networkBlockAll = call.body.networkBlockAll;
        if (call.body.networkAllowList !== undefined)
          sandbox.networkAllowList = call.body.networkAllowList || undefined;
        return reply(200, dto(sandbox));
      }
      return reply(404, { statusCode: 404, message: "no such route" });
    }

    const toolbox = /^\/toolbox\/([^/]+)(\/.*)$/.exec(path);
    const sandbox = toolbox ? sandboxes.get(toolbox[1]) : undefined;
    if (!toolbox || !sandbox) return reply(404, { statusCode: 404, message: "no such sandbox or route" });
    if (sandbox.state !== "started") return reply(409, { statusCode: 409, message: `sandbox is ${sandbox.state}` });
    const route = toolbox[2];
    if (route === "/process/execute") {
      const { command, cwd, timeout } = call.body as { command: string; cwd?: string; timeout?: number };
      const args = splitCommand(command);
      const dir = cwd ? toHost(sandbox, cwd) : sandbox.root;
      mkdirSync(dir, { recursive: true });
      const outcome = await run(
        args,
        dir,
        { ...process.env, PATH: `${shims}:${process.env.PATH}`, FAKE_DAYTONA_ROOT: sandbox.root, HOME: sandbox.root },
        timeout,
      );
      if (outcome.timedOut)
        return reply(408, { statusCode: 408, message: `Command execution timed out after ${timeout} seconds.` });
      return reply(200, { exitCode: outcome.code, result: fromHost(sandbox, outcome.output) });
    }
    if (route === "/files/bulk-upload") {
      for (const [target, content] of Object.entries(call.body as Record<string, string>)) {
        const host = toHost(sandbox, target);
        mkdirSync(dirname(host), { recursive: true });
        writeFileSync(host, content);
      }
      return reply(200, {});
    }
    if (route === "/files/bulk-download") {
      const boundary = `fake-${randomUUID()}`;
      const parts = (call.body.paths as string[]).map((source) => {
        let content: Buffer;
        try {
          content = readFileSync(toHost(sandbox, source));
        } catch {
          const error = Buffer.from(
            JSON.stringify({ message: `no such file: ${source}`, statusCode: 404, code: "FILE_NOT_FOUND" }),
          );
          return Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="error"; filename="${source}"\r\nContent-Type: application/json\r\n\r\n`,
            ),
            error,
            Buffer.from("\r\n"),
          ]);
        }
        return Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${source}"\r\nContent-Type: application/octet-stream\r\nContent-Length: ${content.length}\r\n\r\n`,
          ),
          content,
          Buffer.from("\r\n"),
        ]);
      });
      res.writeHead(200, { "content-type": `multipart/form-data; boundary=${boundary}` });
      return res.end(Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]));
    }
    reply(404, { statusCode: 404, message: "no such route" });
  });

  // Decoded scripts name the sandbox's paths; the shim keeps them inside the sandbox's folder.
  const sedMap = MAPPED.map((m) => `s#${m}#$FAKE_DAYTONA_ROOT${m}#g`).join("; ");
  writeFileSync(
    join(shims, "base64"),
    `#!/bin/bash\nif [ "$1" = "-d" ]; then /usr/bin/base64 -d | sed "${sedMap}"; else exec /usr/bin/base64 "$@"; fi\n`,
  );
  chmodSync(join(shims, "base64"), 0o755);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiUrl: `${url}/api`,
    calls,
    sandboxes,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The daemon's splitting of a command line: on spaces, quotes group, no escapes. */
function splitCommand(command: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote = "";
  for (const char of command) {
    if ((char === '"' || char === "'") && (!quote || quote === char)) quote = quote ? "" : char;
    else if (char === " " && !quote) {
      if (current) args.push(current);
      current = "";
    } else current += char;
  }
  if (current) args.push(current);
  return args;
}

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutS?: number,
): Promise<{ code: number; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(args[0], args.slice(1), { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let timedOut = false;
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = timeoutS
      ? setTimeout(() => {
          timedOut = true;
          process.kill(-child.pid!, "SIGKILL");
        }, timeoutS * 1000)
      : undefined;
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output, timedOut });
    });
  });
}
