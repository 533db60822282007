import type { AgentTemplate } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { parseCidr } from "@/server/egress";

type SandboxPermissions = NonNullable<AgentTemplate["sandbox"]["permissions"]>;

/** Daytona's firewall takes at most this many ranges in `networkAllowList`. */
export const DAYTONA_MAX_ALLOWLIST = 5;

/** The network settings of a Daytona sandbox, as its API names them. */
export interface DaytonaNetwork {
  networkBlockAll: boolean;
  /** Comma-separated IPv4 CIDRs; empty: no list. */
  networkAllowList: string;
}

export interface DaytonaBoundary {
  network: DaytonaNetwork;
  /** Declared boundaries Daytona cannot apply as declared (best_effort runs say so). */
  notApplied: string[];
}

/**
 * `sandbox.permissions` as Daytona enforces them, outside this host: `off` (and no declared
 * boundary) blocks all egress, `on` leaves it open, `allowlist` becomes Daytona's firewall
 * allow list, which takes IPv4 ranges only, at most five. What cannot be expressed, and
 * `filesystem: readonly | off` (the workspace is the agent's working folder), refuses a `strict`
 * run before it starts; `best_effort` runs with the rest, narrower than declared.
 */
export function daytonaBoundary(permissions: SandboxPermissions | null): DaytonaBoundary {
  const blocked: DaytonaNetwork = { networkBlockAll: true, networkAllowList: "" };
  if (!permissions) return { network: blocked, notApplied: [] };
  const notApplied: string[] = [];
  if (permissions.filesystem === "readonly" || permissions.filesystem === "off") {
    notApplied.push(
      `sandbox.permissions.filesystem "${permissions.filesystem}": the Daytona sandbox's workspace is always writable`,
    );
  }
  let network = blocked;
  if (permissions.network.mode === "on") network = { networkBlockAll: false, networkAllowList: "" };
  if (permissions.network.mode === "allowlist") {
    const ipv4: string[] = [];
    for (const text of permissions.network.allowlist) {
      if (parseCidr(text)?.version !== 4)
        notApplied.push(`sandbox.permissions.network.allowlist "${text}": Daytona's firewall takes IPv4 ranges only`);
      else if (ipv4.length >= DAYTONA_MAX_ALLOWLIST)
        notApplied.push(
          `sandbox.permissions.network.allowlist "${text}": Daytona's firewall takes at most ${DAYTONA_MAX_ALLOWLIST} ranges`,
        );
      else ipv4.push(text);
    }
    // Nothing expressible left: nothing is allowed, which is what an empty list declares.
    if (ipv4.length) network = { networkBlockAll: false, networkAllowList: ipv4.join(",") };
  }
  if (notApplied.length && permissions.enforcement === "strict") {
    throw new BadRequestError(
      `${notApplied.join("; ")}. Use enforcement "best_effort" to run without it.`,
      "sandbox_boundary_unavailable",
    );
  }
  return { network, notApplied };
}
