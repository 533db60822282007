import { z } from "zod";
import { runDataSchema } from "../model/run-data";
import { statusSchema } from "../model/statuses";

const record = z.record(z.string(), z.unknown());
const flags = z.record(z.string(), z.boolean().nullish());
const uuid = z.string().uuid();
const uuids = z.array(uuid);

export const runInputSchema = z.object({
  id: uuid.nullish(),
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  status: statusSchema.nullish(),
  flags: flags.nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
  data: runDataSchema.nullish(),
});

export const runFilterSchema = z.object({
  ids: uuids.nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  flags: record.nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
  status: statusSchema.nullish(),
  statuses: z.array(statusSchema).nullish(),
  references: z.array(record).nullish(),
});

export const scenarioInputSchema = z.object({
  id: uuid.nullish(),
  run_id: uuid.nullish(),
  status: statusSchema.nullish(),
  interval: z.number().int().nullish(),
  timestamp: z.iso.datetime({ offset: true }).nullish(),
  flags: z.record(z.string(), z.boolean()).nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
});

export const scenarioFilterSchema = z.object({
  ids: uuids.nullish(),
  run_id: uuid.nullish(),
  run_ids: uuids.nullish(),
  status: statusSchema.nullish(),
  statuses: z.array(statusSchema).nullish(),
  interval: z.number().int().nullish(),
  intervals: z.array(z.number().int()).nullish(),
  timestamp: z.iso.datetime({ offset: true }).nullish(),
  timestamps: z.array(z.iso.datetime({ offset: true })).nullish(),
  tags: record.nullish(),
  flags: record.nullish(),
});

export const resultInputSchema = z.object({
  run_id: uuid,
  scenario_id: uuid,
  step_key: z.string().min(1).max(300),
  repeat_idx: z.number().int().min(0).nullish(),
  status: statusSchema.nullish(),
  trace_id: z.string().max(200).nullish(),
  span_id: z.string().nullish(),
  testcase_id: uuid.nullish(),
  hash_id: z.string().nullish(),
  error: record.nullish(),
  interval: z.number().int().nullish(),
  timestamp: z.iso.datetime({ offset: true }).nullish(),
  flags: z.record(z.string(), z.boolean()).nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
  data: z.object({ outputs: z.unknown() }).nullish(),
});

export const resultFilterSchema = scenarioFilterSchema.extend({
  scenario_id: uuid.nullish(),
  scenario_ids: uuids.nullish(),
  step_key: z.string().nullish(),
  step_keys: z.array(z.string()).nullish(),
  repeat_idx: z.number().int().nullish(),
  repeat_idxs: z.array(z.number().int()).nullish(),
});

export const metricsInputSchema = z.object({
  run_id: uuid,
  scenario_id: uuid.nullish(),
  timestamp: z.iso.datetime({ offset: true }).nullish(),
  interval: z.number().int().nullish(),
  status: statusSchema.nullish(),
  data: record.nullish(),
  flags: z.record(z.string(), z.boolean()).nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
});

export const metricsFilterSchema = z.object({
  ids: uuids.nullish(),
  run_id: uuid.nullish(),
  run_ids: uuids.nullish(),
  scenario_id: uuid.nullish(),
  scenario_ids: z.union([uuids, z.boolean()]).nullish(),
  timestamp: z.iso.datetime({ offset: true }).nullish(),
  timestamps: z.union([z.array(z.iso.datetime({ offset: true })), z.boolean()]).nullish(),
  interval: z.number().int().nullish(),
  intervals: z.array(z.number().int()).nullish(),
  status: statusSchema.nullish(),
  statuses: z.array(statusSchema).nullish(),
  tags: record.nullish(),
  flags: record.nullish(),
});

/** The cells a slice operation addresses: an omitted dimension means all, `[]` means none. */
export const sliceSchema = z.object({
  scenario_ids: uuids.nullish(),
  step_keys: z.array(z.string()).nullish(),
  repeat_idxs: z.array(z.number().int().min(0)).nullish(),
});
