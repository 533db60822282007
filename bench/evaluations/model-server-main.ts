/**
 * The scripted model server in a process of its own: the bench's stand-in for a hosted model,
 * which in production runs elsewhere, so neither its thread nor its CPU is the engine's. Every
 * request is answered "42" after the latency the parent sets over IPC (`{ latencyMs }`, acked
 * with the same message); the first message sent is `{ baseUrl }`.
 */
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";

const server = await startScriptedModelServer();
let latencyMs = 0;
server.respondWith(() => {
  // The server keeps every request for tests to read; a bench makes thousands and reads none.
  server.requests.length = 0;
  return { kind: "reply", text: "42", usage: { input: 10, output: 1 }, delayMs: latencyMs };
});
process.on("message", (message: { latencyMs?: unknown }) => {
  if (typeof message.latencyMs !== "number") return;
  latencyMs = message.latencyMs;
  process.send!({ latencyMs });
});
// The parent's end (or its death) closes the channel: the server goes with it.
process.on("disconnect", () => void server.close().finally(() => process.exit(0)));
process.send!({ baseUrl: server.baseUrl });
