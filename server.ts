/**
 * The production server (`npm start`, the container): one node:http listener. `/api/*`, `/v1/*`
 * and `/services/*` go straight to the router (server/boot/api-doors.ts, node:http door); pages, the tRPC
 * endpoint and static files go to Next.js's request handler. Built into `<distDir>/server.mjs`
 * by scripts/build-server.mjs; scripts/start.mjs sets HOST/PORT/DATA_DIR and loads it.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import type { NextConfig } from "next";
import { getApp } from "@/server/boot/app";
import { logger } from "@/server/core/logger";
import { apiSecurityHeaders, securityHeaderSettings } from "@/server/core/security-headers";
import { createFront } from "@/server/boot/front";
import { shutDown } from "@/server/boot/graceful-shutdown";
import { exitOnStartupRefusal } from "@/server/boot/startup-refusal";
import { backgroundWorkersFor } from "@/server/boot/workers";

const hostname = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 3000);
const distDir = process.env.NEXT_DIST_DIR || ".next";

// The configuration `next build` resolved, so the server needs neither next.config.ts nor a
// TypeScript loader at run time (as Next.js's own standalone server does).
const { config } = JSON.parse(readFileSync(path.join(distDir, "required-server-files.json"), "utf8")) as {
  config: NextConfig;
};

const app = await getApp().catch(exitOnStartupRefusal);
const workers = app.context.config.workers === "in-process" ? backgroundWorkersFor(app.context) : [];
const pages = next({ dev: false, dir: process.cwd(), hostname, port, conf: config });
await pages.prepare();
const nextHandler = pages.getRequestHandler();

const apiHeaders = apiSecurityHeaders(securityHeaderSettings(app.context.config));
const server = createServer(createFront(app.serve, (req, res) => nextHandler(req, res), apiHeaders));
// Keep-alive connections outlive a load balancer's idle timeout, so it never reuses a closed one.
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => logger.info({ url: `http://${hostname}:${port}` }, "server listening"));

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    shutDown(server, app, workers).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
