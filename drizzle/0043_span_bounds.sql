-- Edited by hand after drizzle-kit generate: the bounds of the traces and sessions already stored
-- are filled from spans (the readers take a missing row to mean no spans at all).
CREATE TABLE "session_bounds" (
	"project_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"first_start" timestamp (6) with time zone NOT NULL,
	"last_start" timestamp (6) with time zone NOT NULL,
	CONSTRAINT "session_bounds_pkey" PRIMARY KEY("project_id","session_id")
);
--> statement-breakpoint
CREATE TABLE "trace_bounds" (
	"project_id" uuid NOT NULL,
	"trace_id" uuid NOT NULL,
	"first_start" timestamp (6) with time zone NOT NULL,
	"last_start" timestamp (6) with time zone NOT NULL,
	CONSTRAINT "trace_bounds_pkey" PRIMARY KEY("project_id","trace_id")
);
--> statement-breakpoint
CREATE INDEX "session_bounds_last_idx" ON "session_bounds" USING btree ("project_id","last_start");--> statement-breakpoint
CREATE INDEX "trace_bounds_last_idx" ON "trace_bounds" USING btree ("project_id","last_start");--> statement-breakpoint
INSERT INTO "trace_bounds" SELECT "project_id", "trace_id", min("start_time"), max("start_time") FROM "spans" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "session_bounds" SELECT "project_id", "session_id", min("start_time"), max("start_time") FROM "spans" WHERE "session_id" IS NOT NULL GROUP BY 1, 2;
