export { parseAllowlist, type AllowlistEntry } from "./allowlist";
export { addressRefusal } from "./check-address";
export { EgressRefusedError, findEgressRefusal } from "./egress-refused-error";
export { createGuardedFetch, type GuardedFetchOptions } from "./guarded-fetch";
export { guardedLookup } from "./guarded-lookup";
export { urlRefusal, type UrlRules } from "./validate-url";
