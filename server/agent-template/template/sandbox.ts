import { z } from "zod";
import { cidrRange } from "./cidr";
import { closedObject } from "./closed-object";
import { extrasField } from "./extras";
import { selectorObject } from "./selector-object";

export const SANDBOX_KINDS = ["local", "daytona_sandbox"] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

const networkSchema = closedObject({
  mode: z.enum(["on", "off", "allowlist"]).default("on").describe("Outbound network policy."),
  allowlist: z.array(cidrRange()).default([]).describe("CIDR ranges allowed when mode is `allowlist`."),
});

const sandboxPermissionsSchema = closedObject({
  network: networkSchema.prefault({}),
  filesystem: z.enum(["on", "readonly", "off"]).nullable().default(null).describe("Declared only; not enforced."),
  enforcement: z
    .enum(["strict", "best_effort"])
    .default("strict")
    .describe("`strict` fails the run when the boundary cannot be applied."),
}).describe("Declared security boundary; null = none declared, and nothing reaches the wire.");

export const sandboxSchema = selectorObject("sandbox", SANDBOX_KINDS, {
  kind: z
    .enum(SANDBOX_KINDS)
    .default("local")
    .describe("Where the agent runs; the deployment decides which are enabled."),
  permissions: sandboxPermissionsSchema.nullable().default(null),
  extras: extrasField("Per-sandbox knobs passed through unchanged (for example a provider snapshot)."),
}).describe("Where the agent runs plus its security boundary.");
