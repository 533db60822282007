import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { errorCodes, statusesOf, type ErrorCode } from "@/server/core/errors";
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

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the root $schema key is not allowed inside.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  return rest;
}

/** An error answer whose `code` is one of `codes`. */
const errorResponse = (description: string, codes: ErrorCode[]) => ({
  description,
  content: {
    "application/json": {
      schema: { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { code: { enum: codes } } }] },
    },
  },
});

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
        errorResponse(statusDescriptions[status] ?? STATUS_CODES[status] ?? "Error", codes.sort()),
      ]),
  );
}

/** The success answer: the JSON body's schema, or what a route without a JSON body sends instead. */
function successResponse(route: AnyRoute) {
  if (route.response)
    return {
      description: "Success",
      content: { "application/json": { schema: jsonSchema(route.response, "output") } },
    };
  const { description = "Success", contentTypes = [] } = route.noJsonBody ?? {};
  return {
    description,
    ...(contentTypes.length ? { content: Object.fromEntries(contentTypes.map((type) => [type, {}])) } : {}),
  };
}

/** OpenAPI 3.1, generated from the same route table and zod schemas the router validates with. */
export function buildOpenApiDocument(routes: AnyRoute[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const responses: Record<string, unknown> = {
      [String(route.status ?? 200)]: successResponse(route),
      ...errorResponses(route),
    };
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
      schemas: { Error: jsonSchema(errorBody, "output") },
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
