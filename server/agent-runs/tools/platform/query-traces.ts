import { z } from "zod";
import { queryTraces as query } from "@/server/tracing";
import { platformOperation } from "./platform-operation";

export const queryTraces = platformOperation({
  op: "query_traces",
  description:
    "Queries this project's traces, newest first, with the query language of POST /api/traces/query: `filtering` is {operator: and|or, conditions: [{field, operator, value}]} (fields such as content, status_code, span_name, trace_id, attributes.<key>), `windowing` is {limit, oldest, newest, next}.",
  endpoint: "POST /api/traces/query",
  readOnly: true,
  bound: ["project_id"],
  args: z.object({
    filtering: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Conditions, as POST /api/traces/query takes them."),
    windowing: z
      .object({
        limit: z.number().int().min(1).max(50).default(10),
        oldest: z.string().optional(),
        newest: z.string().optional(),
        next: z.string().optional(),
      })
      .default({ limit: 10 })
      .describe("Paging; at most 50 traces per call."),
  }),
  run: async (scope, args) =>
    query(
      scope.app.db,
      { projectId: scope.principal.projectId, userId: scope.principal.userId },
      { filtering: args.filtering, windowing: args.windowing },
    ),
});
