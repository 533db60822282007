import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "@/server/boot";
import { openAiRoutes } from "@/server/openai-compat";
import { nodeIncoming } from "@/server/http/node-incoming";
import type { AnyRoute } from "@/server/http/route";
import { createRouter, type Authenticators } from "@/server/http/router";
import { toResponse } from "@/server/http/reply";
import { webIncoming } from "@/server/http/web-incoming";
import { writeReply } from "@/server/http/write-reply";
import { createTestApp, type TestApp } from "../helpers/test-app";

/** Every route that answers without a body of any media type: an accepted or no-content answer. */
const noBodyRoutes = [...allRoutes, ...openAiRoutes].filter((r) => r.noJsonBody && !r.noJsonBody.contentTypes);

/** What a handler of such a route might return: nothing, or a value it computed on the way. */
const RESULTS: unknown[] = [undefined, null, { count: 1 }, "done", 0];

const NONE: Authenticators = {
  apiKey: () => Promise.reject(new Error("not used")),
  session: () => Promise.resolve(null),
};

/** The route as declared (method, path, status, no-body declaration), its handler returning `result`. */
const answering = (route: AnyRoute, result: unknown): AnyRoute => ({
  method: route.method,
  path: route.path,
  auth: "none",
  tag: route.tag,
  summary: route.summary,
  status: route.status,
  noJsonBody: route.noJsonBody,
  handler: () => Promise.resolve(result),
});

const concretePath = (template: string) => template.replace(/\{[^}]+\}/g, "01a20dea-a7f9-75a3-82a6-6b784c4f3701");

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("routes that declare no body", () => {
  it("are the accepted and no-content answers, and there are some", () => {
    expect(noBodyRoutes.length).toBeGreaterThanOrEqual(5);
    expect(
      noBodyRoutes.filter((r) => r.status !== 202 && r.status !== 204).map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  });

  it.each(noBodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s answers its status with an empty body on both doors, whatever its handler returns",
    async (_name, route) => {
      for (const result of RESULTS) {
        const router = createRouter([answering(route, result)], t.context, NONE);
        const server: Server = createServer(
          (req, res) =>
            void router(nodeIncoming(req, res))
              .then((reply) => writeReply(reply, res, false))
              // As the production front does when writing an answer throws.
              .catch(() => (res.headersSent ? res.destroy() : res.writeHead(500).end())),
        );
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        try {
          const { port } = server.address() as AddressInfo;
          const url = `http://127.0.0.1:${port}${concretePath(route.path)}`;
          const res = await fetch(url, { method: route.method });
          expect(res.status, `${JSON.stringify(result)} on node:http`).toBe(route.status);
          expect(await res.text()).toBe("");
          // The connection is still usable: a second request on it is answered the same way.
          expect((await fetch(url, { method: route.method })).status).toBe(route.status);

          const web = toResponse(await router(webIncoming(new Request(url, { method: route.method }))));
          expect(web.status, `${JSON.stringify(result)} as a web Response`).toBe(route.status);
          expect(await web.text()).toBe("");
        } finally {
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      }
    },
  );
});
