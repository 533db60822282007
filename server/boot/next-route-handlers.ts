import type { AfterResponse } from "./after-response";
import { getApp } from "./app";

/**
 * What Next.js's catch-all route files (`app/{api,services,v1}/[...path]/route.ts`) export: every
 * method goes to the app's router, which owns the routes of all three mounts, with Next.js's
 * `after()` so that WORKERS=after-response works off what an answer queued, as the node door does
 * on every path. Each route file still declares `dynamic` itself, since Next.js reads segment
 * config only from the file.
 */
export function nextRouteHandlers(after: AfterResponse) {
  const handle = async (request: Request): Promise<Response> => (await getApp()).handle(request, after);
  return { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, HEAD: handle, OPTIONS: handle };
}
