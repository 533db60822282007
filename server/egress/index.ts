export { parseAllowlist, type AllowlistEntry } from "./allowlist";
export { addressRefusal } from "./check-address";
export { parseCidr, type Cidr } from "./cidr";
export { EgressRefusedError, findEgressRefusal } from "./egress-refused-error";
export { createGuardedFetch, type GuardedFetchOptions } from "./guarded-fetch";
export { guardedLookup } from "./guarded-lookup";
export { urlRefusal, type UrlRules } from "./validate-url";
