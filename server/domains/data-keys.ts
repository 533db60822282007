/**
 * The top-level keys each domain's revision `data` may hold: the compat API's per-domain data
 * model (its SDK's `WorkflowRevisionData`, `TestsetRevisionData`, `QueryRevisionData`,
 * `EnvironmentRevisionData`) and what this service stores beside it. Any other key is refused
 * at commit with 422 naming it (server/versioning/data-keys.ts); what a domain's own features
 * write is listed here, so nothing the service writes itself is refused.
 */

/**
 * Workflows, applications and evaluators (one data model in the compat API): the interface
 * (`version`, `uri`, `url`, `headers`, `schemas`) and configuration (`runtime`, `script`,
 * `parameters`), and its legacy `service` and `configuration`, which it still accepts. An agent
 * template lives in `parameters.agent`, a prompt in `parameters.prompt`, an evaluator's settings
 * in `parameters` and a human evaluator's scale in `schemas.outputs`.
 */
export const WORKFLOW_DATA_KEYS = [
  "version",
  "uri",
  "url",
  "headers",
  "schemas",
  "runtime",
  "script",
  "parameters",
  "service",
  "configuration",
] as const;

/** Rows (`testcases`), their ids as a retrieve answers them, and the table editor's column order (`columns`). */
export const TESTSET_DATA_KEYS = ["testcases", "testcase_ids", "columns"] as const;

/** A saved trace query; `formatting` (its focus) is this service's, beside the compat API's two. */
export const QUERY_DATA_KEYS = ["filtering", "windowing", "formatting"] as const;

/** What each key deploys, and this service's weighted splits of a key (canary releases). */
export const ENVIRONMENT_DATA_KEYS = ["references", "splits"] as const;
