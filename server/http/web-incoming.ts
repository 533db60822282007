import type { Incoming } from "./incoming";
import { readWebBody } from "./read-body";

/** The Next.js door (app/api/[...path]/route.ts, tests): the request is already a web `Request`. */
export function webIncoming(request: Request): Incoming {
  const url = new URL(request.url);
  return {
    method: request.method,
    pathname: url.pathname,
    search: url.search.slice(1),
    header: (name) => request.headers.get(name),
    readBody: (limit) => readWebBody(request, limit),
    request,
  };
}
