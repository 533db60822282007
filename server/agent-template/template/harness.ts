import { z } from "zod";
import { closedObject } from "./closed-object";
import { extrasField } from "./extras";
import { selectorObject } from "./selector-object";

export const HARNESS_KINDS = ["core_harness", "service_harness", "external_harness"] as const;
export type HarnessKind = (typeof HARNESS_KINDS)[number];

const HARNESS_PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

const ruleList = (description: string) =>
  z.array(z.string().min(1, "must not be empty")).default([]).describe(description);

const harnessPermissionsSchema = closedObject({
  default_mode: z
    .enum(HARNESS_PERMISSION_MODES)
    .nullable()
    .default(null)
    .describe("The harness's own default permission mode."),
  allow: ruleList("Per-tool rules approved without prompting."),
  ask: ruleList("Per-tool rules that raise a prompt."),
  deny: ruleList("Per-tool rules always rejected."),
}).describe("Tool-use gating posture, applied by harnesses that gate (the core harness does not).");

export const harnessSchema = selectorObject("harness", HARNESS_KINDS, {
  kind: z.enum(HARNESS_KINDS).default("core_harness").describe("Which coding agent to drive."),
  permissions: harnessPermissionsSchema.prefault({}),
  extras: extrasField(
    "Per-harness knobs passed through unchanged; for the core harness, `system` replaces the base system prompt and `append_system` adds to it.",
  ),
}).describe("Coding agent to drive plus its gating posture.");
