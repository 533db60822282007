import { z } from "zod";

/** The reference implementation's one status enum for runs, scenarios, results, metrics and queues. */
export const STATUSES = ["pending", "queued", "running", "success", "failure", "errors", "cancelled"] as const;
export type EvaluationStatus = (typeof STATUSES)[number];
export const statusSchema = z.enum(STATUSES);

/** A cell or run in one of these is done. */
export const TERMINAL: readonly string[] = ["success", "failure", "errors", "cancelled"];

/** The reference implementation's wire version of every evaluation entity. */
export const EVALUATION_VERSION = "2025-07-14";
