import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import { allRoutes, openApiDocument } from "@/server/boot";
import { openAiRoutes } from "@/server/openai-compat";
import { PathMatcher } from "@/server/http/path-matcher";
import type { AnyRoute } from "@/server/http/route";
import { routeErrors } from "@/server/http/route-errors";

const matcher = new PathMatcher<AnyRoute>();
for (const route of [...allRoutes, ...openAiRoutes]) matcher.add(route.path, route);

/** The document `GET /api/openapi.json` serves, as a generated client reads it. */
const document = openApiDocument();
// Formats (uuid, date-time) are the zod schemas' to check (below, on success bodies): the document
// is checked for what a generated client types, its shapes, enums and required fields.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(document, "openapi");
const headerAjv = new Ajv2020({ strict: false, validateFormats: false, coerceTypes: true });

/**
 * Headers every answer may carry without its operation documenting them: HTTP's own (framing,
 * caching, cookies, described by the Session security scheme) and the security headers the front
 * puts on every answer (server/boot/front.ts), which OpenAPI has no place for per operation.
 */
const UNDOCUMENTED_HEADERS = new Set([
  "content-type",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "vary",
  "cache-control",
  // HTTP's own: a 405 names the methods the path takes.
  "allow",
  "x-accel-buffering",
  "set-cookie",
  "content-security-policy",
  "content-security-policy-report-only",
  "x-frame-options",
  "x-content-type-options",
  "referrer-policy",
  "permissions-policy",
  "strict-transport-security",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "cross-origin-embedder-policy",
  "origin-agent-cluster",
  "x-dns-prefetch-control",
  "x-permitted-cross-domain-policies",
]);

export type AnswerHeaders = Headers | OutgoingHttpHeaders;

interface DocumentedResponse {
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: object }>;
  content?: Record<string, { schema?: object }>;
}

/**
 * Every answer a test receives is checked against the OpenAPI document the service serves (and
 * against the route's zod schemas it is generated from), so the document cannot drift from what
 * the service sends and a client generated from it accepts every answer: the status must be one
 * the operation documents; a JSON body, success or error, must match that status's schema (an
 * error's code and the fields its code carries included); every header must be documented there,
 * with a value its schema admits, and every required one sent. A mismatch fails the test that
 * made the call.
 */
export function assertResponseContract(
  method: string,
  url: string,
  status: number,
  headers: AnswerHeaders,
  body: unknown,
): void {
  if (status < 200) return;
  const pathname = new URL(url, "http://localhost").pathname;
  const wanted = method === "HEAD" ? "GET" : method;
  const route = routeOf(pathname, wanted);
  if (!route) return;
  const contentType = headerOf(headers, "content-type");
  const isJson = Boolean(contentType?.includes("application/json"));
  if (status >= 400 && isJson) assertDeclaredCode(route, status, body);
  const where = `${route.method} ${route.path} answered ${status}`;
  const documented = responseOf(route, status);
  if (!documented)
    throw new Error(
      `${where}, a status its OpenAPI entry does not document (its \`status\`, \`otherSuccess\` or the statuses of its \`errors\`)`,
    );
  assertHeaders(where, documented, headers);
  if (!isJson) return;
  if (!documented.content?.["application/json"])
    throw new Error(`${where} with a JSON body, where its OpenAPI entry documents none for that status`);
  // A JSON answer the route documents without a schema (a stream's batch form) has only its type to match.
  if (!documented.content["application/json"].schema) return;
  const validate = validatorOf(route, status);
  const issues = validate(body) ? [] : describe(validate.errors);
  if (issues.length) throw new Error(`${where} with a body its OpenAPI document does not allow: ${issues.join("; ")}`);
  if (status < 300 && status === (route.status ?? 200) && route.response) assertZodResponse(where, route, body);
}

/** The route the router matched; none for a path it refuses before matching (a malformed escape: its own 400). */
function routeOf(pathname: string, method: string): AnyRoute | undefined {
  try {
    return matcher.matchAll(pathname).find((m) => m.value.method === method)?.value;
  } catch {
    return undefined;
  }
}

function operationOf(route: AnyRoute): { responses: Record<string, DocumentedResponse> } {
  return (document.paths[route.path] as Record<string, { responses: Record<string, DocumentedResponse> }>)[
    route.method.toLowerCase()
  ];
}

function responseOf(route: AnyRoute, status: number): DocumentedResponse | undefined {
  return operationOf(route).responses[String(status)];
}

const validators = new Map<string, ValidateFunction>();

/** The JSON body's schema of the route's answer with `status`, compiled from the document once. */
function validatorOf(route: AnyRoute, status: number): ValidateFunction {
  const pointer = ["paths", route.path, route.method.toLowerCase(), "responses", String(status), "content"]
    .concat(["application/json", "schema"])
    .map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1"))
    .join("/");
  let validate = validators.get(pointer);
  if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `openapi#/${pointer}` })));
  return validate;
}

function describe(errors: ValidateFunction["errors"]): string[] {
  return (errors ?? [])
    .slice(0, 6)
    .map(
      (e) =>
        `${e.instancePath || "(root)"} ${e.message}${e.params && "additionalProperty" in e.params ? ` "${String(e.params.additionalProperty)}"` : ""}${e.params && "allowedValues" in e.params ? ` (${(e.params.allowedValues as unknown[]).slice(0, 8).join(", ")})` : ""}`,
    );
}

function headerOf(headers: AnswerHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return value === undefined ? undefined : Array.isArray(value) ? value.join(", ") : String(value);
}

function headerNames(headers: AnswerHeaders): string[] {
  return headers instanceof Headers ? [...headers.keys()] : Object.keys(headers).map((name) => name.toLowerCase());
}

const headerValidators = new Map<object, ValidateFunction>();

function assertHeaders(where: string, documented: DocumentedResponse, headers: AnswerHeaders): void {
  const docs = new Map(
    Object.entries(documented.headers ?? {}).map(([name, doc]) => [
      name.toLowerCase(),
      doc.$ref ? (lookUp(doc.$ref) as { required?: boolean; schema?: object }) : doc,
    ]),
  );
  for (const name of headerNames(headers)) {
    const doc = docs.get(name);
    if (!doc) {
      if (UNDOCUMENTED_HEADERS.has(name)) continue;
      throw new Error(
        `${where} with the header ${name}, which its OpenAPI entry does not document for that status: declare it (the route's \`headers\`, or the code's in server/core/errors/error-extras.ts)`,
      );
    }
    if (!doc.schema) continue;
    let validate = headerValidators.get(doc.schema);
    if (!validate)
      headerValidators.set(
        doc.schema,
        (validate = headerAjv.compile({ type: "object", properties: { value: doc.schema } })),
      );
    if (!validate({ value: headerOf(headers, name) }))
      throw new Error(`${where} with ${name}: ${headerOf(headers, name)}, which its documented schema refuses`);
  }
  for (const [name, doc] of docs)
    if (doc.required && headerOf(headers, name) === undefined)
      throw new Error(`${where} without the header ${name}, which its OpenAPI entry says it always sends`);
}

function lookUp(ref: string): unknown {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], document);
}

function assertZodResponse(where: string, route: AnyRoute, body: unknown): void {
  const parsed = route.response!.safeParse(body);
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  throw new Error(`${where} with a body its declared response schema (OpenAPI) does not allow: ${issues.join("; ")}`);
}

/** The error's code: top level in the project's shape (`detail` text or object alike), inside `error` in OpenAI's (/v1). */
function codeOf(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return undefined;
  const { code, error } = body as { code?: unknown; error?: { code?: unknown } };
  return code ?? (typeof error === "object" && error !== null ? error.code : undefined);
}

/** An undeclared code is named first, with what to add: clearer than the schema's enum mismatch. */
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
 * thrown by the server's `close()`. Status and headers are checked on every answer; only JSON
 * bodies are buffered, streams pass untouched.
 */
export class ContractViolations {
  private readonly found: string[] = [];

  check(method: string, url: string, status: number, headers: AnswerHeaders, text: string | undefined): void {
    try {
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // A body that is not JSON is checked by its headers alone.
      }
      assertResponseContract(method, url, status, headers, body);
    } catch (error) {
      this.found.push((error as Error).message);
    }
  }

  /** Wraps a node:http handler so that each answer it writes is checked once it ends. */
  node<R>(handle: (req: IncomingMessage, res: ServerResponse) => R): (req: IncomingMessage, res: ServerResponse) => R {
    return (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      // writeHead(status, headers) leaves no trace in getHeaders(), so its headers are kept as they pass.
      let written: OutgoingHttpHeaders = {};
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        const given = rest.find((r) => typeof r === "object" && r !== null);
        written = Array.isArray(given) ? rawHeaders(given as string[]) : ((given as OutgoingHttpHeaders) ?? {});
        return writeHead(status, ...rest);
      }) as typeof res.writeHead;
      const headers = (): OutgoingHttpHeaders => ({ ...lowerCased(res.getHeaders()), ...lowerCased(written) });
      const isJson = () =>
        res.statusCode >= 200 && String(headers()["content-type"] ?? "").includes("application/json");
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown) => {
        if ((typeof chunk === "string" || chunk instanceof Uint8Array) && isJson()) chunks.push(Buffer.from(chunk));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== "function") keep(chunk);
        this.check(
          req.method ?? "GET",
          req.url ?? "/",
          res.statusCode,
          headers(),
          isJson() ? Buffer.concat(chunks).toString("utf8") : undefined,
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

function lowerCased(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** writeHead's flat `[name, value, name, value]` form. */
function rawHeaders(flat: string[]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i].toLowerCase()] = flat[i + 1];
  return out;
}
