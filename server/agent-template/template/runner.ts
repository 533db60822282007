import { z } from "zod";
import { closedObject } from "./closed-object";
import { extrasField } from "./extras";
import { selectorObject } from "./selector-object";

/** allow_reads runs read-hinted tools and asks for everything else. */
export const RUNNER_PERMISSION_DEFAULTS = ["allow", "ask", "deny", "allow_reads"] as const;
export type RunnerPermissionDefault = (typeof RUNNER_PERMISSION_DEFAULTS)[number];

export const runnerSchema = selectorObject("runner", ["sidecar"], {
  kind: z.literal("sidecar").default("sidecar").describe("Engine driving the harness loop; the only value."),
  permissions: closedObject({
    default: z
      .enum(RUNNER_PERMISSION_DEFAULTS)
      .default("allow_reads")
      .describe(
        "allow: run every tool; ask: approval for every tool; deny: refuse every tool; allow_reads: run read-hinted tools, ask for the rest.",
      ),
  })
    .prefault({})
    .describe("Runner-enforced tool execution policy; a tool entry's permission overrides it for that tool."),
  extras: extrasField("Per-runner knobs passed through unchanged."),
}).describe("Engine that drives the loop plus the tool execution policy.");
