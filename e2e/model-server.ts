import http from "node:http";
import { startScriptedModelServer, type Script } from "../tests/helpers/scripted-model-server";
import { modelControlPort, modelPort } from "./ports";

/**
 * The scripted model server the browser tests' app talks to (OPENAI_BASE_URL), started by
 * playwright.config.ts as a second web server. Specs replace its script over a small control
 * server (e2e/model-script.ts), since they run in other processes.
 */
const model = await startScriptedModelServer({ port: modelPort() });

const control = http.createServer(async (req, res) => {
  if (req.method === "GET" && req.url === "/health") {
    res.writeHead(200).end("ok");
    return;
  }
  if (req.method === "POST" && req.url === "/script") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    // A new script replaces every earlier answer, rules included: a spec starts from what it says.
    model.respondWith(undefined);
    model.script(...(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Script[]));
    res.writeHead(204).end();
    return;
  }
  if (req.method === "POST" && req.url === "/rules") {
    // Replies chosen by what the request says (runs in parallel make a FIFO script's order moot).
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rules = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { match: string[]; script: Script }[];
    model.respondWith(
      rules.length
        ? (request) => {
            const text = JSON.stringify(request.body ?? {});
            return rules.find((rule) => rule.match.every((m) => text.includes(m)))?.script;
          }
        : undefined,
    );
    res.writeHead(204).end();
    return;
  }
  if (req.method === "GET" && req.url === "/requests") {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(model.requests.map((r) => ({ path: r.path, body: r.body }))));
    return;
  }
  res.writeHead(404).end();
});
control.listen(modelControlPort(), "127.0.0.1");

const stop = () => {
  control.close();
  void model.close().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
