import type { IncomingMessage, ServerResponse } from "node:http";
import { allRoutes } from "@/server/boot";
import { openAiRoutes } from "@/server/openai-compat";
import { PathMatcher } from "@/server/http/path-matcher";
import type { AnyRoute } from "@/server/http/route";
import { routeErrors } from "@/server/http/route-errors";

const matcher = new PathMatcher<AnyRoute>();
for (const route of [...allRoutes, ...openAiRoutes]) matcher.add(route.path, route);

/**
 * Every JSON answer a test receives is checked against what its route declares (what the OpenAPI
 * document is generated from), so the document cannot drift from what the service sends: a
 * success body against the route's response schema, an error's `code` against the framework's
 * codes for the route and the route's `errors`. A mismatch fails the test that made the call.
 */
export function assertResponseContract(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  if (status < 200 || !contentType?.includes("application/json")) return;
  const pathname = new URL(url, "http://localhost").pathname;
  const wanted = method === "HEAD" ? "GET" : method;
  const route = routeOf(pathname, wanted);
  if (!route) return;
  if (status >= 400) return assertDeclaredCode(route, status, body);
  if (status >= 300 || !route.response) return;
  const parsed = route.response.safeParse(body);
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  throw new Error(
    `${method} ${route.path} answered ${status} with a body its declared response schema (OpenAPI) does not allow: ${issues.join("; ")}`,
  );
}

/** The route the router matched; none for a path it refuses before matching (a malformed escape: its own 400). */
function routeOf(pathname: string, method: string): AnyRoute | undefined {
  try {
    return matcher.matchAll(pathname).find((m) => m.value.method === method)?.value;
  } catch {
    return undefined;
  }
}

/** The error's code: top level in the project's shape (`detail` text or object alike), inside `error` in OpenAI's (/v1). */
function codeOf(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return undefined;
  const { code, error } = body as { code?: unknown; error?: { code?: unknown } };
  return code ?? (typeof error === "object" && error !== null ? error.code : undefined);
}

function assertDeclaredCode(route: AnyRoute, status: number, body: unknown): void {
  const code = codeOf(body);
  if (typeof code !== "string" || (routeErrors(route) as string[]).includes(code)) return;
  throw new Error(
    `${route.method} ${route.path} answered ${status} with code "${code}", which its OpenAPI entry does not list: add "${code}" to the route's \`errors\` (server/http/route.ts)`,
  );
}

/**
 * The same check for answers written on a real socket (tests/helpers/http-server.ts). A socket
 * answer cannot be turned into a test failure where it is made, so violations are kept and
 * thrown by the server's `close()`. Only JSON bodies are buffered; streams pass untouched.
 */
export class ContractViolations {
  private readonly found: string[] = [];

  check(method: string, url: string, status: number, contentType: string | null, text: string): void {
    try {
      assertResponseContract(method, url, status, contentType, text ? JSON.parse(text) : undefined);
    } catch (error) {
      this.found.push((error as Error).message);
    }
  }

  /** Wraps a node:http handler so that each JSON body it writes is checked once it ends. */
  node<R>(handle: (req: IncomingMessage, res: ServerResponse) => R): (req: IncomingMessage, res: ServerResponse) => R {
    return (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      // writeHead(status, headers) leaves no trace in getHeader(), so its headers are read as they pass.
      let contentType = "";
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        const headers = rest.find((r) => typeof r === "object" && r !== null) as Record<string, unknown> | undefined;
        const given = headers && Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1];
        contentType = String(given ?? res.getHeader("content-type") ?? "");
        return writeHead(status, ...rest);
      }) as typeof res.writeHead;
      const isJson = () =>
        res.statusCode >= 200 &&
        (contentType || String(res.getHeader("content-type") ?? "")).includes("application/json");
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown) => {
        if ((typeof chunk === "string" || chunk instanceof Uint8Array) && isJson()) chunks.push(Buffer.from(chunk));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== "function") keep(chunk);
        if (isJson())
          this.check(
            req.method ?? "GET",
            req.url ?? "/",
            res.statusCode,
            "application/json",
            Buffer.concat(chunks).toString("utf8"),
          );
        return end(chunk, ...rest);
      }) as typeof res.end;
      return handle(req, res);
    };
  }

  /** Throws every violation seen, so the test that closes the server fails. */
  assertNone(): void {
    if (this.found.length)
      throw new Error(`Answers sent over HTTP broke their routes' declared contracts:\n${this.found.join("\n")}`);
  }
}
