import { createSecureContext, rootCertificates } from "node:tls";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import type { AllowlistEntry } from "./allowlist";
import { addressRefusal } from "./check-address";
import type { Cidr } from "./cidr";
import { EgressRefusedError, findEgressRefusal } from "./egress-refused-error";
import { guardedLookup } from "./guarded-lookup";
import { parseIp } from "./ip-address";

export interface GuardedFetchOptions {
  allowlist: AllowlistEntry[];
  /** Extra trusted CA certificates (PEM), besides the system's and NODE_EXTRA_CA_CERTS. */
  ca?: string[];
  /**
   * When set, only addresses inside these ranges are reachable, on top of the rules above (a
   * sandbox's `network.mode: allowlist`); checked on the same pinned address as the rules.
   */
  restrictTo?: Cidr[];
}

/**
 * A `fetch` for user-supplied URLs (webhook endpoints, custom LLM provider base URLs, MCP servers:
 * the AI SDK providers take it as their `fetch` option). Every connection it opens, including
 * those of followed redirects, goes through the egress rules: IP literals are checked before
 * connecting, names are resolved once and the socket is pinned to the checked address. A refusal
 * rejects with `EgressRefusedError` (its `reason` says which rule).
 */
export function createGuardedFetch(options: GuardedFetchOptions): typeof globalThis.fetch {
  // Passing `ca` replaces the default roots; keep them so public endpoints still verify. The
  // context is built once: from a `ca` list, every connection would parse every root again.
  const tls = options.ca ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...options.ca] }) } : {};
  const connectThroughLookup = buildConnector({
    lookup: guardedLookup(options.allowlist, options.restrictTo),
    ...tls,
  } as buildConnector.BuildOptions);
  const agent = new Agent({
    connect: (connectOptions, callback) => {
      // net.connect skips `lookup` for IP literals, so those are judged here.
      const host = connectOptions.hostname;
      if (parseIp(host)) {
        const reason = addressRefusal(options.allowlist, host, host.replace(/^\[|\]$/g, ""), options.restrictTo);
        if (reason) return callback(new EgressRefusedError(reason), null);
      }
      return connectThroughLookup(connectOptions, callback);
    },
  });
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const [url, options] = unpackRequest(input, init);
    try {
      const response = await undiciFetch(url, { ...(options as object), dispatcher: agent });
      return response as unknown as Response;
    } catch (error) {
      throw findEgressRefusal(error) ?? error;
    }
  };
  return guarded as typeof globalThis.fetch;
}

/**
 * undici's fetch does not accept the global `Request` (another copy of the class), so a Request
 * is taken apart into its URL and init; fields given in `init` win, as with fetch itself.
 */
function unpackRequest(input: string | URL | Request, init?: RequestInit): [string | URL, RequestInit | undefined] {
  if (typeof input === "string" || input instanceof URL) return [input, init];
  const fromRequest: RequestInit & { duplex?: "half" } = {
    method: input.method,
    headers: input.headers,
    body: input.body,
    signal: input.signal,
    redirect: input.redirect,
    ...(input.body ? { duplex: "half" } : {}),
  };
  return [input.url, { ...fromRequest, ...init }];
}
