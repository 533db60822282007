/**
 * Every table of the schema, each with what the planted-value test expects of it and why. The test
 * fails on a table missing here (a new table must be placed, with its reason) and on one named
 * here that the schema no longer has. Whatever a table's place, any row it holds is scanned:
 * only `keptAsWritten` tables may hold a planted value.
 */
export type StoredTable =
  /** Written by the test's traffic; it must hold rows, none with a planted value. */
  | { written: string }
  /**
   * Holds what a person wrote on purpose, as written (server/redaction/README.md, "Not
   * redacted"); the test plants a value there and must find it (the scan's own proof).
   */
  | { keptAsWritten: string }
  /** Not written by the test's traffic, and why no planted value can reach it through it. */
  | { notWritten: string };

const configuration = (what: string): StoredTable => ({
  notWritten: `${what}: configuration an operator writes through a settings API, no conversation or span content`,
});

export const STORED_TABLES: Record<string, StoredTable> = {
  agent_runs: { written: "invoke, chat completions and Responses turns: the recorded request and error" },
  agent_run_events: { written: "each turn's event log (text and reasoning blocks redacted whole)" },
  api_keys: { written: "the project's key (hashed)" },
  artifacts: { written: "agents, testsets and evaluators created by the test" },
  audit_log: { written: "redaction settings changes" },
  chat_sessions: { written: "the playground chat session" },
  evaluation_metrics: { written: "the evaluation's metrics" },
  evaluation_results: { written: "the agent's outputs per cell and the results an SDK posts" },
  evaluation_runs: { written: "the evaluation" },
  evaluation_scenarios: { written: "the evaluation's scenarios" },
  events: { written: "commit and deploy messages (redacted at emit), run and evaluation events" },
  openai_responses: { written: "the /v1/responses conversation a previous_response_id continues" },
  project_members: { written: "the fixture's owner" },
  projects: { written: "the fixture's project" },
  redaction_settings: { written: "the rules under test (patterns, never planted values)" },
  secret_key_checks: { written: "the APP_SECRET_KEY check" },
  span_rollups: { written: "the rollups of every span written" },
  spans: { written: "every ingest path: runs, evaluation cells, client spans, the annotation" },
  session_bounds: { written: "the first and last span start of each session of the runs (ids and times only)" },
  trace_bounds: { written: "each trace's first and last span start (ids and times only)" },
  users: { written: "the fixture's user" },
  variants: { written: "the variants of the test's artifacts" },
  vault_secrets: { written: "a planted provider key, sealed: only ciphertext is stored" },
  webhook_attempts: { written: "the delivery attempts to the receiver (its answer's excerpt)" },
  webhook_deliveries: { written: "the fanned-out payloads (event attributes redacted at fan-out)" },
  webhook_subscriptions: { written: "the receiver's subscription" },

  revisions: { keptAsWritten: "agent and testset revisions and their commit and deploy messages (the revision log)" },
  testcases: { keptAsWritten: "a testset's cells, as the person wrote them" },

  a2a_push_configs: configuration("A2A push notification configs (URL, sealed token and credentials)"),
  a2a_push_deliveries: {
    notWritten:
      "A2A pushes: no A2A task in the test's traffic; the pushed task is built from the run's recorded request and log, both redacted when written",
  },
  accounts: { notWritten: "sign-in (better-auth): hashed passwords and provider ids of a user's own login" },
  sessions: { notWritten: "sign-in sessions: tokens, IP and user agent of the signed-in user" },
  verifications: { notWritten: "sign-in verification tokens" },
  rate_limits: { notWritten: "sign-in limiter counters: keys and counts" },
  replica_read_positions: { notWritten: "read replicas only: a caller id and a WAL position per caller" },
  project_invites: { notWritten: "an invitation names the invitee's e-mail on purpose (a user's own identity)" },
  instance_settings: configuration("instance settings"),
  retention_settings: configuration("retention periods"),
  automations: configuration("automation definitions (target, input template, schedule)"),
  automation_deliveries: {
    written:
      "an automation's firings: an event firing's payload is the event's attributes (redacted at emit); an inbound trigger's is kept as sent until its run starts, then redacted; the inputs its run was given are stored redacted like the payload",
  },
  budgets: configuration("budgets"),
  budget_spend: { notWritten: "spend per budget window: numbers" },
  model_aliases: configuration("model aliases"),
  model_allowlists: configuration("model allowlists"),
  model_prices: configuration("model prices"),
  model_rate_limits: configuration("model rate limits"),
  rate_limit_points: { notWritten: "rate limiter counters: keys and counts" },
  canaries: configuration("canary releases"),
  improve_optimizations: {
    notWritten: "optimization jobs: ids, settings, scores and progress; the test's traffic starts none",
  },
  improve_candidates: {
    notWritten:
      "an optimization's candidates: revision data (kept as the revisions are) and verdicts copied from evaluation results, which are stored redacted; the test's traffic starts no optimization",
  },
  deploy_gates: configuration("deploy gates"),
  monitors: configuration("monitors"),
  analytics_dashboards: configuration("saved analytics dashboards (chart queries)"),
  monitor_alerts: { notWritten: "a monitor's alerts: metric readings and states" },
  monitor_notifications: {
    notWritten: "a monitor alert's notification: built from the monitor's configuration and its readings",
  },
  evaluation_queues: { notWritten: "annotation queues: names and assignments" },
  improve_triages: {
    notWritten:
      "triages: evidence references and failures copied from spans and evaluation results, which are stored redacted already",
  },
  improve_failure_modes: {
    notWritten: "a triage's failure modes: names, counts and examples copied from redacted spans and results",
  },
  evaluation_score_rollups: { notWritten: "score rollups: numbers per evaluator and window" },
  rollup_compaction: { notWritten: "how far the span roll-ups' compaction has gone: a time per project and grain" },
  sandbox_workspaces: {
    notWritten:
      "files an agent's tools wrote in its session's workspace, kept as files: redacting them would change what the agent's code reads",
  },
  span_ingest: { notWritten: "the ingest queue: empty once drained, its rows redacted at enqueue (the one door)" },
  tool_approvals: { notWritten: "approvals keep a tool call's SHA-256, never its arguments" },
  exposures: configuration("what a project exposes over MCP and A2A (slugs and names)"),
  oauth_clients: { notWritten: "MCP clients' registrations: a name and redirect URIs, no secret (public clients)" },
  oauth_codes: { notWritten: "authorization codes, stored by their SHA-256 only, with the PKCE challenge" },
  oauth_tokens: { notWritten: "OAuth access and refresh tokens, stored by their SHA-256 only, with scopes" },
};
