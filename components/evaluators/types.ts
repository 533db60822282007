import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Out = inferRouterOutputs<AppRouter>["evaluators"];
export type EvaluatorTemplate = Out["templates"][number];
export type EvaluatorPreset = Out["presets"][number];
export type EvaluatorListItem = Out["list"][number];
export type EvaluatorRevision = Out["get"]["revisions"][number];
export type TrialOutcome = Out["try"];

/** A JSON Schema node as the catalog serves it (the subset the form reads). */
export interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  /** An alias of another parameter: the form leaves it out unless it holds a value. */
  deprecated?: boolean;
}

export type Parameters = Record<string, unknown>;
