import { allRoutes } from "@/server/boot";
import { PathMatcher } from "@/server/http/path-matcher";
import type { AnyRoute } from "@/server/http/route";

const matcher = new PathMatcher<AnyRoute>();
for (const route of allRoutes) matcher.add(route.path, route);

/**
 * Every JSON success answer a test receives is checked against the response schema its route
 * declares (the schema the OpenAPI document is generated from), so the document cannot drift
 * from what the service sends. A mismatch fails the test that made the call.
 */
export function assertResponseContract(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  if (status < 200 || status >= 300 || !contentType?.includes("application/json")) return;
  const pathname = new URL(url, "http://localhost").pathname;
  const wanted = method === "HEAD" ? "GET" : method;
  const route = matcher.matchAll(pathname).find((m) => m.value.method === wanted)?.value;
  if (!route?.response) return;
  const parsed = route.response.safeParse(body);
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  throw new Error(`${method} ${route.path} answered ${status} with a body its declared response schema (OpenAPI) does not allow: ${issues.join("; ")}`);
}
