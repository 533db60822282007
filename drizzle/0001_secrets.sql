CREATE TABLE "secret_key_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL
);
