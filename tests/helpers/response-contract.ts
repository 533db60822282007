import type { IncomingMessage, ServerResponse } from "node:http";
import { allRoutes } from "@/server/boot";
import { openAiRoutes } from "@/server/openai-compat";
import { PathMatcher } from "@/server/http/path-matcher";
import type { AnyRoute } from "@/server/http/route";

const matcher = new PathMatcher<AnyRoute>();
for (const route of [...allRoutes, ...openAiRoutes]) matcher.add(route.path, route);

/**
 * Every JSON success answer a test receives is checked against the response schema its route
 * declares (the schema the OpenAPI document is generated from), so the document cannot drift
 * from what the service sends. A mismatch fails the test that made the call.
 */
export function assertResponseContract(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  if (status < 200 || status >= 300 || !contentType?.includes("application/json")) return;
  const pathname = new URL(url, "http://localhost").pathname;
  const wanted = method === "HEAD" ? "GET" : method;
  const route = matcher.matchAll(pathname).find((m) => m.value.method === wanted)?.value;
  if (!route?.response) return;
  const parsed = route.response.safeParse(body);
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  throw new Error(
    `${method} ${route.path} answered ${status} with a body its declared response schema (OpenAPI) does not allow: ${issues.join("; ")}`,
  );
}

/**
 * The same check for answers written on a real socket (tests/helpers/http-server.ts). A socket
 * answer cannot be turned into a test failure where it is made, so violations are kept and
 * thrown by the server's `close()`. Only JSON success bodies are buffered; streams pass untouched.
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

  /** Wraps a node:http handler so that each JSON success body it writes is checked once it ends. */
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
      const isJsonSuccess = () =>
        res.statusCode >= 200 &&
        res.statusCode < 300 &&
        (contentType || String(res.getHeader("content-type") ?? "")).includes("application/json");
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown) => {
        if ((typeof chunk === "string" || chunk instanceof Uint8Array) && isJsonSuccess())
          chunks.push(Buffer.from(chunk));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== "function") keep(chunk);
        if (isJsonSuccess())
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
      throw new Error(`Answers sent over HTTP broke their declared response schemas:\n${this.found.join("\n")}`);
  }
}
