import { z } from "zod";
import { IGNORED_KEYS, requestObject, runFlagsFilter, runFlagsInput } from "../model/request-fields";
import { refSchema, runDataSchema } from "../model/run-data";
import { statusSchema } from "../model/statuses";

const record = z.record(z.string(), z.unknown());
const uuid = z.string().uuid();
const uuids = z.array(uuid);
const { echo, createdId } = IGNORED_KEYS;

/** A run as a create or an edit gives it; `id` is the edit's (a create's is dropped). */
export const runFields = {
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  status: statusSchema.nullish(),
  flags: runFlagsInput.nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
  data: runDataSchema.nullish(),
};
export const runCreateSchema = requestObject(runFields, echo, createdId);
export const runEditSchema = requestObject({ ...runFields, id: uuid.nullish() }, echo);

export const runFilterSchema = z.strictObject({
  ids: uuids.nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  flags: runFlagsFilter.nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
  status: statusSchema.nullish(),
  statuses: z.array(statusSchema).nullish(),
  references: z.array(z.record(z.string(), refSchema)).nullish(),
});

const scenarioFields = {
  run_id: uuid.nullish(),
  status: statusSchema.nullish(),
  interval: z.number().int().nullish(),
  timestamp: z.iso.datetime({ offset: true }).nullish(),
  flags: z.record(z.string(), z.boolean()).nullish(),
  tags: record.nullish(),
  meta: record.nullish(),
};
export const scenarioCreateSchema = requestObject({ ...scenarioFields, run_id: uuid }, echo, createdId);
/** `run_id` may be echoed, but a scenario never moves to another run (the store refuses a different one). */
export const scenarioEditSchema = requestObject({ ...scenarioFields, id: uuid.nullish() }, echo);

const cellFilterFields = {
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
  meta: record.nullish(),
};
export const scenarioFilterSchema = z.strictObject(cellFilterFields);

export const resultInputSchema = requestObject(
  {
    run_id: uuid,
    scenario_id: uuid,
    step_key: z.string().min(1).max(300),
    repeat_idx: z.number().int().min(0).nullish(),
    status: statusSchema.nullish(),
    trace_id: z.string().max(200).nullish(),
    testcase_id: uuid.nullish(),
    hash_id: z.string().nullish(),
    error: record.nullish(),
    interval: z.number().int().nullish(),
    timestamp: z.iso.datetime({ offset: true }).nullish(),
    flags: z.record(z.string(), z.boolean()).nullish(),
    tags: record.nullish(),
    meta: record.nullish(),
    data: requestObject({ outputs: z.unknown() }, IGNORED_KEYS.resultDataEcho).nullish(),
  },
  echo,
  createdId,
  IGNORED_KEYS.resultSpanId,
);

export const resultFilterSchema = z.strictObject({
  ...cellFilterFields,
  scenario_id: uuid.nullish(),
  scenario_ids: uuids.nullish(),
  step_key: z.string().nullish(),
  step_keys: z.array(z.string()).nullish(),
  repeat_idx: z.number().int().nullish(),
  repeat_idxs: z.array(z.number().int()).nullish(),
});

export const metricsInputSchema = requestObject(
  {
    run_id: uuid,
    scenario_id: uuid.nullish(),
    timestamp: z.iso.datetime({ offset: true }).nullish(),
    interval: z.number().int().nullish(),
    status: statusSchema.nullish(),
    data: record.nullish(),
    flags: z.record(z.string(), z.boolean()).nullish(),
    tags: record.nullish(),
    meta: record.nullish(),
  },
  echo,
  createdId,
);

export const metricsFilterSchema = z.strictObject({
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
  meta: record.nullish(),
});

/** The cells a slice operation addresses: an omitted dimension means all, `[]` means none. */
export const sliceFields = {
  scenario_ids: uuids.nullish(),
  step_keys: z.array(z.string()).nullish(),
  repeat_idxs: z.array(z.number().int().min(0)).nullish(),
};
export const sliceSchema = z.strictObject(sliceFields);
