import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";

const rowWindowing = z.strictObject({
  limit: z.number().int().min(1).max(50_000).optional(),
  next: z.string().uuid("windowing.next must be the testcase id returned by the previous window").optional(),
  order: z.enum(["ascending", "descending"]).optional(),
});

/**
 * The compat API's loadable options of a testset retrieve: both lists default to included (a
 * query's default to excluded, but a testset's rows are its content). `windowing` pages the rows
 * in their stored order; `next` is the last testcase id of the previous window.
 */
export const testsetRetrieveOptions = {
  include_testcases: z.boolean().nullish(),
  include_testcase_ids: z.boolean().nullish(),
  windowing: rowWindowing.nullish(),
};

type Row = { id: string; data?: unknown };

export function shapeTestsetRetrieved(
  data: Record<string, unknown>,
  options: Record<string, unknown>,
): { data: Record<string, unknown>; windowing?: { next: string } } {
  const all = (Array.isArray(data.testcases) ? data.testcases : []) as Row[];
  const windowing = (options.windowing ?? {}) as z.infer<typeof rowWindowing>;
  const ordered = windowing.order === "descending" ? [...all].reverse() : all;
  const start = windowing.next ? ordered.findIndex((row) => row.id === windowing.next) + 1 : 0;
  if (windowing.next && start === 0)
    throw new BadRequestError(`windowing.next ${windowing.next} is no testcase of this revision`, "invalid_cursor");
  const rows = windowing.limit ? ordered.slice(start, start + windowing.limit) : ordered.slice(start);
  const more = start + rows.length < ordered.length;
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => key !== "testcases"));
  return {
    data: {
      ...rest,
      ...(options.include_testcase_ids === false ? {} : { testcase_ids: rows.map((row) => row.id) }),
      ...(options.include_testcases === false ? {} : { testcases: rows }),
    },
    ...(more && rows.length ? { windowing: { next: rows[rows.length - 1].id } } : {}),
  };
}
