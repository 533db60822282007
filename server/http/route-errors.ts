import type { ErrorCode } from "@/server/core/errors";
import type { AnyRoute, AuthMode } from "./route";

/** The refusals the router itself raises before a handler runs, per authentication mode. */
const authCodes: Record<AuthMode, ErrorCode[]> = {
  api_key: [
    "missing_credentials",
    "malformed_credentials",
    "invalid_api_key",
    "revoked_api_key",
    "expired_api_key",
    "member_removed",
    "insufficient_role",
    "missing_scope",
    "database_unavailable",
  ],
  session: ["not_signed_in", "cross_site_request", "no_project", "insufficient_role", "database_unavailable"],
  admin: ["missing_credentials", "invalid_admin_token", "admin_disabled"],
  none: [],
};

/** Reading and validating a JSON body (`read-body.ts`, the node door's reader, `parseWith`). */
const bodyCodes: ErrorCode[] = ["invalid_json", "too_deep", "body_aborted", "payload_too_large", "validation_error"];

/**
 * The database errors only input we let through can cause, mapped by `error-response.ts` behind
 * validation: any route that takes input can answer them.
 */
const inputSafetyNetCodes: ErrorCode[] = [
  "duplicate",
  "invalid_value",
  "value_too_long",
  "invalid_character",
  "too_complex",
];

/**
 * The codes the framework answers for `route` whatever its handler does: authentication, origin,
 * path parameters, body and query parsing, the database safety net, and the 500 that names only
 * the request id. A route's own `errors` lists the rest, and never repeats these.
 */
export function frameworkErrors(route: AnyRoute): ErrorCode[] {
  const takesInput = Boolean(route.body || route.rawBody || route.query || route.path.includes("{"));
  return [
    ...new Set<ErrorCode>([
      ...authCodes[route.auth as AuthMode],
      ...(route.sameOrigin ? (["cross_site_request"] as const) : []),
      ...(route.params ? (["invalid_path_parameter"] as const) : []),
      ...(route.body ? bodyCodes : []),
      ...(route.query ? (["validation_error"] as const) : []),
      ...(takesInput ? inputSafetyNetCodes : []),
      "internal_error",
    ]),
  ];
}

/** Every code `route` can answer: the framework's and its handler's. */
export function routeErrors(route: AnyRoute): ErrorCode[] {
  return [...new Set([...frameworkErrors(route), ...(route.errors ?? [])])];
}
