import { rootCertificates } from "node:tls";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import type { AllowlistEntry } from "./allowlist";
import { addressRefusal } from "./check-address";
import { EgressRefusedError, findEgressRefusal } from "./egress-refused-error";
import { guardedLookup } from "./guarded-lookup";
import { parseIp } from "./ip-address";

export interface GuardedFetchOptions {
  allowlist: AllowlistEntry[];
  /** Extra trusted CA certificates (PEM), besides the system's and NODE_EXTRA_CA_CERTS. */
  ca?: string[];
}

/**
 * A `fetch` for user-supplied URLs (webhook endpoints, custom LLM provider base URLs, MCP servers:
 * the AI SDK providers take it as their `fetch` option). Every connection it opens, including
 * those of followed redirects, goes through the egress rules: IP literals are checked before
 * connecting, names are resolved once and the socket is pinned to the checked address. A refusal
 * rejects with `EgressRefusedError` (its `reason` says which rule).
 */
export function createGuardedFetch(options: GuardedFetchOptions): typeof globalThis.fetch {
  // Passing `ca` replaces the default roots; keep them so public endpoints still verify.
  const tls = options.ca ? { ca: [...rootCertificates, ...options.ca] } : {};
  const connectThroughLookup = buildConnector({ lookup: guardedLookup(options.allowlist), ...tls } as buildConnector.BuildOptions);
  const agent = new Agent({
    connect: (connectOptions, callback) => {
      // net.connect skips `lookup` for IP literals, so those are judged here.
      const host = connectOptions.hostname;
      if (parseIp(host)) {
        const reason = addressRefusal(options.allowlist, host, host.replace(/^\[|\]$/g, ""));
        if (reason) return callback(new EgressRefusedError(reason), null);
      }
      return connectThroughLookup(connectOptions, callback);
    },
  });
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    try {
      const response = await undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as object), dispatcher: agent });
      return response as unknown as Response;
    } catch (error) {
      throw findEgressRefusal(error) ?? error;
    }
  };
  return guarded as typeof globalThis.fetch;
}
