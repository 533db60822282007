CREATE TABLE "rollup_compaction" (
	"project_id" uuid NOT NULL,
	"grain" text NOT NULL,
	"detail" smallint NOT NULL,
	"compacted_before" timestamp (3) with time zone NOT NULL,
	"set_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "rollup_compaction_pkey" PRIMARY KEY("project_id","grain","detail")
);
