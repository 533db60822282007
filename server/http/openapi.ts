import { createHash } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { errorCodes, errorExtras, statusesOf, type ErrorCode, type HeaderDoc } from "@/server/core/errors";
import type { AnyRoute } from "./route";
import { routeErrors } from "./route-errors";

const errorBody = z.object({
  detail: z
    .union([
      z.string(),
      z.looseObject({ message: z.string(), code: z.string() }).describe("The conditions the reference answers so"),
    ])
    .describe("What went wrong, in words a person can act on: the text, or {message, code, ...fields}"),
  code: z
    .enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]])
    .describe("Stable snake_case code; server/core/errors/error-codes.ts says what each means"),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/**
 * Definitions zod puts under a schema's own `$defs` (recursive schemas), moved to
 * `components.schemas` while a document is built: inside an OpenAPI document `#/$defs/x` points at
 * the document's root, where a client would find nothing.
 */
let hoisted: Record<string, unknown> | undefined;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the root $schema key is not allowed inside.
  const {
    $schema: _ignored,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  if (!$defs) return rest;
  // Named by what they are, so one definition shared by many schemas is one component.
  const text = JSON.stringify({ rest, $defs });
  const prefix = `Def${createHash("sha1").update(text).digest("hex").slice(0, 10)}`;
  const renamed = JSON.parse(
    text.replace(/"#\/\$defs\/([^"]+)"/g, (_m, name: string) => `"#/components/schemas/${prefix}_${name}"`),
  ) as { rest: Record<string, unknown>; $defs: Record<string, unknown> };
  if (hoisted)
    for (const [name, definition] of Object.entries(renamed.$defs)) hoisted[`${prefix}_${name}`] = definition;
  return renamed.rest;
}

/** The /v1 door's error body (server/openai-compat/openai-error.ts): OpenAI's shape, the service's code. */
const openAiErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.enum([
      "invalid_request_error",
      "authentication_error",
      "permission_error",
      "insufficient_quota",
      "rate_limit_error",
      "server_error",
    ]),
    param: z.string().nullable().describe("The first field the error names, if any"),
    code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]),
  }),
});

/** The schema name of a code whose answer carries fields of its own: `budget_exceeded` -> `BudgetExceededError`. */
const extrasSchemaName = (code: string) => `${code.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}Error`;

/** Codes whose body carries fields besides `detail`, `code` and `errors` each get a schema of their own. */
function extrasSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(errorExtras)
      .filter(([, extras]) => extras.fields)
      .map(([code, extras]) => [
        extrasSchemaName(code),
        jsonSchema(errorBody.extend({ code: z.literal(code), ...extras.fields }), "output"),
      ]),
  );
}

type HeaderObject = { description: string; required?: boolean; schema: Record<string, unknown> } | { $ref: string };

/** `X-Request-Id` on every answer, then the documented ones; required when `required` says so. */
function headerObjects(
  docs: Record<string, HeaderDoc>,
  required: (name: string) => boolean,
): Record<string, HeaderObject> {
  return {
    "X-Request-Id": { $ref: "#/components/headers/RequestId" },
    ...Object.fromEntries(
      Object.entries(docs).map(([name, doc]) => [
        name,
        {
          description: doc.description,
          ...(required(name) ? { required: true } : {}),
          schema: jsonSchema(doc.schema, "output"),
        },
      ]),
    ),
  };
}

/** An error answer whose `code` is one of `codes`: in the route's error shape, with what each code carries. */
function errorResponse(description: string, codes: ErrorCode[], shape: AnyRoute["errorShape"]) {
  const headers: Record<string, HeaderDoc> = {};
  for (const code of codes) Object.assign(headers, errorExtras[code]?.headers);
  const everyCodeSends = (name: string) => codes.every((code) => errorExtras[code]?.headers?.[name]?.always);
  let schema: Record<string, unknown>;
  if (shape === "openai") {
    // The door's body keeps only the code of what the service's body says (no fields).
    schema = {
      allOf: [
        { $ref: "#/components/schemas/OpenAiError" },
        { properties: { error: { properties: { code: { enum: codes } } } } },
      ],
    };
  } else {
    const plain = codes.filter((code) => !errorExtras[code]?.fields);
    const variants: Record<string, unknown>[] = [
      ...(plain.length
        ? [{ allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { code: { enum: plain } } }] }]
        : []),
      ...codes
        .filter((code) => errorExtras[code]?.fields)
        .map((code) => ({ $ref: `#/components/schemas/${extrasSchemaName(code)}` })),
    ];
    schema = variants.length === 1 ? variants[0] : { oneOf: variants };
  }
  return {
    description,
    headers: headerObjects(headers, everyCodeSends),
    content: { "application/json": { schema } },
  };
}

/** What each error status means on any route; the codes listed under it say which case. */
const statusDescriptions: Record<number, string> = {
  400: "The request breaks a rule of the contract",
  401: "Missing, malformed, unknown or revoked credentials",
  402: "A budget is spent",
  403: "The credentials do not admit this operation",
  404: "Something the request names does not exist",
  409: "The request conflicts with the current state",
  413: "Body too large",
  415: "Unsupported content type or encoding",
  422: "Body or query does not match the schema",
  429: "A limit is reached for now",
  500: "An unexpected failure; the answer names only the request id",
  502: "An upstream service failed",
  503: "The service cannot answer for now",
  504: "An upstream service did not answer in time",
};

/** The route's error answers: every code it can answer (the framework's and its own), grouped by status. */
function errorResponses(route: AnyRoute): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrors(route))
    for (const status of statusesOf(code)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        errorResponse(statusDescriptions[status] ?? STATUS_CODES[status] ?? "Error", codes.sort(), route.errorShape),
      ]),
  );
}

/** A success answer: the JSON body's schema, or what a route without a JSON body sends instead. */
function successResponse(
  description: string,
  response: z.ZodType | undefined,
  noJsonBody: AnyRoute["noJsonBody"],
  headers: Record<string, HeaderDoc> = {},
) {
  const documented = headerObjects(headers, () => false);
  if (response)
    return {
      description,
      headers: documented,
      content: { "application/json": { schema: jsonSchema(response, "output") } },
    };
  const contentTypes = noJsonBody?.contentTypes ?? [];
  return {
    description: noJsonBody?.description ?? description,
    headers: documented,
    ...(contentTypes.length ? { content: Object.fromEntries(contentTypes.map((type) => [type, {}])) } : {}),
  };
}

/** The route's success answers: its status, and the others it declares. */
function successResponses(route: AnyRoute): Record<string, unknown> {
  return {
    [String(route.status ?? 200)]: successResponse("Success", route.response, route.noJsonBody, route.headers),
    ...Object.fromEntries(
      Object.entries(route.otherSuccess ?? {}).map(([status, other]) => [
        status,
        successResponse(
          other.description,
          other.response,
          other.response ? undefined : { description: other.description },
          other.headers,
        ),
      ]),
    ),
  };
}

/** OpenAPI 3.1, generated from the same route table and zod schemas the router validates with. */
export function buildOpenApiDocument(routes: AnyRoute[], info: { title: string; version: string }) {
  hoisted = {};
  try {
    return documentOf(routes, info, hoisted);
  } finally {
    hoisted = undefined;
  }
}

function documentOf(
  routes: AnyRoute[],
  info: { title: string; version: string },
  definitions: Record<string, unknown>,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const responses: Record<string, unknown> = { ...successResponses(route), ...errorResponses(route) };
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      summary: route.summary,
      tags: [route.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(route.query ? { "x-query-schema": jsonSchema(route.query, "input") } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(route.body, "input") } },
            },
          }
        : {}),
      ...(route.rawBody
        ? {
            requestBody: {
              required: true,
              description: route.rawBody.description,
              content: Object.fromEntries(
                route.rawBody.contentTypes.map((type) => [
                  type,
                  route.rawBody!.schema && type.endsWith("json")
                    ? { schema: jsonSchema(route.rawBody!.schema, "input") }
                    : {},
                ]),
              ),
            },
          }
        : {}),
      responses,
      security:
        route.auth === "api_key"
          ? [{ ApiKey: [] }]
          : route.auth === "admin"
            ? [{ AdminToken: [] }]
            : route.auth === "session"
              ? [{ Session: [] }]
              : [],
    };
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info,
    paths,
    components: {
      schemas: {
        Error: jsonSchema(errorBody, "output"),
        OpenAiError: jsonSchema(openAiErrorBody, "output"),
        ...extrasSchemas(),
        ...definitions,
      },
      headers: {
        RequestId: {
          description:
            "This request's id (the one sent as X-Request-Id, or a new one): quote it when reporting a problem",
          required: true,
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "Authorization", description: "`ApiKey <key>`" },
        AdminToken: { type: "apiKey", in: "header", name: "Authorization", description: "`Access <ADMIN_TOKEN>`" },
        Session: {
          type: "apiKey",
          in: "cookie",
          name: "better-auth.session_token",
          description: "The playground's session cookie; same-origin requests only",
        },
      },
    },
  };
}
