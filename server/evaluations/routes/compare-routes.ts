import { z } from "zod";
import { replicaRead } from "@/server/db";
import { oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { compareRuns, comparisonWire } from "../compare/compare-runs";
import { tag } from "./route-helpers";

export const compareRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/evaluations/runs/compare",
    auth: "api_key",
    role: "viewer",
    tag,
    summary:
      "Compare runs over the same testcases: per testcase outputs, scores and deltas against the first run; per run aggregates",
    body: z.strictObject({ run_ids: z.array(z.string().uuid()).min(2).max(10) }),
    response: oneSchema("comparison", comparisonWire),
    errors: ["too_few_runs", "unknown_run"],
    handler: async ({ ctx, body }) => ({
      count: 1,
      // On a replica that has replayed the caller's last write, else the primary (server/db/read-routing.ts).
      comparison: await replicaRead(ctx.app.db, (db) => compareRuns(db, ctx.principal.projectId, body.run_ids)),
    }),
  }),
];
