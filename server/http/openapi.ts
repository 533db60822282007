import { z } from "zod";
import { errorCodes, type ErrorCode } from "@/server/core/errors";
import type { AnyRoute, AuthMode } from "./route";

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

/** An error answer; `codes`, when the framework knows them, narrows the `code` it can carry. */
const errorResponse = (description: string, codes?: ErrorCode[]) => ({
  description,
  content: {
    "application/json": {
      schema: codes
        ? { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { code: { enum: codes } } }] }
        : { $ref: "#/components/schemas/Error" },
    },
  },
});

/** The refusals the router itself raises before a handler runs, per authentication mode. */
const authErrors: Record<Exclude<AuthMode, "none">, { 401: ErrorCode[]; 403: ErrorCode[] }> = {
  api_key: {
    401: [
      "missing_credentials",
      "malformed_credentials",
      "invalid_api_key",
      "revoked_api_key",
      "expired_api_key",
      "member_removed",
    ],
    403: ["insufficient_role", "missing_scope"],
  },
  session: { 401: ["not_signed_in"], 403: ["cross_site_request", "no_project", "insufficient_role"] },
  admin: { 401: ["missing_credentials", "invalid_admin_token"], 403: ["admin_disabled"] },
};

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
    const auth: AuthMode = route.auth;
    const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const responses: Record<string, unknown> = {
      [String(route.status ?? 200)]: successResponse(route),
      ...(route.body
        ? {
            "400": errorResponse("Invalid JSON or a rule of the contract"),
            "413": errorResponse("Body too large", ["payload_too_large"]),
            "422": errorResponse("Body does not match the schema", ["validation_error"]),
          }
        : {}),
      ...(route.rawBody
        ? {
            "400": errorResponse("Unreadable body or a rule of the contract"),
            "413": errorResponse("Body too large", ["payload_too_large"]),
          }
        : {}),
      ...(auth !== "none"
        ? {
            "401": errorResponse("Missing, malformed, unknown or revoked credentials", authErrors[auth][401]),
            "403": errorResponse("The credentials do not admit this operation", authErrors[auth][403]),
          }
        : {}),
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
