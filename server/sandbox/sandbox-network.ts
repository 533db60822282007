import { AsyncResource } from "node:async_hooks";
import type { SecureFetch } from "just-bash";
import type { AgentTemplate } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { createGuardedFetch, parseCidr, type AllowlistEntry } from "@/server/egress";

type SandboxPermissions = NonNullable<AgentTemplate["sandbox"]["permissions"]>;

/** The largest response body `curl` inside the sandbox reads. */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface SandboxBoundary {
  /** Absent: no network at all (the sandbox has no `curl`). */
  fetch?: SecureFetch;
  /** Declared boundaries this sandbox could not apply (best_effort runs say so in a `data` frame). */
  notApplied: string[];
}

/**
 * Applies `sandbox.permissions` to the `local` sandbox. Network: `off` gives the shell no fetch
 * at all; `on` reaches the internet through the egress guard (private, loopback and metadata
 * addresses refused unless EGRESS_ALLOWLIST lets them); `allowlist` additionally keeps every
 * connection inside the listed ranges. `filesystem: readonly | off` cannot be applied (the
 * workspace is the agent's working folder): `strict` refuses the run before it starts.
 * No declared boundary (null) means the network is off: nothing is opened that was not asked for.
 */
export function sandboxBoundary(
  permissions: SandboxPermissions | null,
  egress: { allowlist: AllowlistEntry[]; ca?: string[] },
): SandboxBoundary {
  if (!permissions) return { notApplied: [] };
  const notApplied: string[] = [];
  if (permissions.filesystem === "readonly" || permissions.filesystem === "off") {
    notApplied.push(
      `sandbox.permissions.filesystem "${permissions.filesystem}": the local sandbox's workspace is always writable`,
    );
  }
  if (notApplied.length && permissions.enforcement === "strict") {
    throw new BadRequestError(
      `${notApplied.join("; ")}. Use enforcement "best_effort" to run without it.`,
      "sandbox_boundary_unavailable",
    );
  }
  const { mode, allowlist } = permissions.network;
  if (mode === "off") return { notApplied };
  const restrictTo = mode === "allowlist" ? allowlist.map((text) => parseCidr(text)!).filter(Boolean) : undefined;
  return {
    fetch: secureFetch(createGuardedFetch({ allowlist: egress.allowlist, ca: egress.ca, restrictTo })),
    notApplied,
  };
}

/**
 * Bound to the async context it is made in (prepareTurn, outside any script): just-bash's
 * defence in depth blocks host APIs such as WeakRef inside a running script, and undici needs
 * them to connect. Only the host's guarded fetch runs there; the script's code does not.
 */
function secureFetch(fetch: typeof globalThis.fetch): SecureFetch {
  return AsyncResource.bind(async (url: string, options: Parameters<SecureFetch>[1] = {}) => {
    const response = await fetch(url, {
      method: options.method ?? "GET",
      // A plain object: the guarded fetch is npm undici's, which rejects another copy's Headers.
      headers: options.headers instanceof Headers ? Object.fromEntries(options.headers) : options.headers,
      body: options.body,
      redirect: options.followRedirects === false ? "manual" : "follow",
      signal: options.signal,
    });
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.byteLength > MAX_RESPONSE_BYTES) throw new Error(`response larger than ${MAX_RESPONSE_BYTES} bytes`);
    return {
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers),
      body,
      url: response.url || url,
    };
  });
}
