/**
 * The production server's API door without Next.js: the same front (server/http/front.ts), app,
 * route table and in-process workers as server.ts, with every non-API path a 404. For benchmarks
 * where `next build` cannot run (a worktree whose node_modules is a symlink Turbopack will not
 * follow); the API path is the one server.ts takes. Run by bench/lib/next-server.ts
 * (`startNextServer({ apiOnly: true })`), configured like `npm start` (PORT, HOST, DATABASE_URL).
 * It shuts down as server.ts does on SIGTERM, so `node --cpu-prof` writes its profile.
 */
import { createServer } from "node:http";
import { getApp } from "@/server/boot";
import { logger } from "@/server/core/logger";
import { createFront } from "@/server/boot";
import { backgroundWorkersFor, shutDown } from "@/server/boot";

const app = await getApp();
const workers = app.context.config.workers === "in-process" ? backgroundWorkersFor(app.context) : [];
const server = createServer(createFront(app.serve, async (_req, res) => void res.writeHead(404).end()));
server.keepAliveTimeout = 65_000;
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
server.listen(port, hostname, () => logger.info({ url: `http://${hostname}:${port}` }, "server listening"));

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    shutDown(server, app, workers).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
