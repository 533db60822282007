-- The work index ends with the cell id: claims and records lease the next due cells in (due_at, id)
-- order, and a run's start gives thousands of cells one due_at, so without the id each of them
-- sorted every due cell of the run to take one (server/evaluations/execution/claim-cells.ts).
DROP INDEX "evaluation_results_work_idx";--> statement-breakpoint
CREATE INDEX "evaluation_results_work_idx" ON "evaluation_results" USING btree ("run_id","status","due_at","id");