-- Edited by hand after drizzle-kit generate: spans is partitioned by range of start_time (Drizzle
-- cannot declare partitioning) and has a full-text index over its attribute values.
CREATE TABLE "span_ingest" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "span_ingest_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" uuid NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"span_count" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"payload" text NOT NULL,
	"trace_ids" uuid[] NOT NULL,
	"start_days" integer[] NOT NULL,
	"replace_traces" uuid[]
);
--> statement-breakpoint
CREATE TABLE "spans" (
	"project_id" uuid NOT NULL,
	"trace_id" uuid NOT NULL,
	"span_id" uuid NOT NULL,
	"parent_id" uuid,
	"start_time" timestamp (6) with time zone NOT NULL,
	"end_time" timestamp (6) with time zone NOT NULL,
	"trace_type" text NOT NULL,
	"span_type" text NOT NULL,
	"span_kind" text NOT NULL,
	"span_name" text NOT NULL,
	"status_code" text NOT NULL,
	"status_message" text,
	"session_id" text,
	"user_id" text,
	"agent_id" text,
	"attributes" jsonb NOT NULL,
	"references" jsonb,
	"links" jsonb,
	"events" jsonb,
	"exception" jsonb,
	"resource" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spans_pkey" PRIMARY KEY("project_id","trace_id","span_id","start_time")
) PARTITION BY RANGE ("start_time");
--> statement-breakpoint
ALTER TABLE "span_ingest" ADD CONSTRAINT "span_ingest_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spans_project_time_idx" ON "spans" USING btree ("project_id","start_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "spans_session_idx" ON "spans" USING btree ("project_id","session_id") WHERE "spans"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "spans_user_idx" ON "spans" USING btree ("project_id","user_id") WHERE "spans"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "spans_type_idx" ON "spans" USING btree ("project_id","span_type","start_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "spans_name_idx" ON "spans" USING btree ("project_id","span_name");--> statement-breakpoint
CREATE INDEX "spans_attributes_idx" ON "spans" USING gin ("attributes" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "spans_content_idx" ON "spans" USING gin (to_tsvector('simple', "attributes"));
