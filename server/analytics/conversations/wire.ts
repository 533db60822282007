import { z } from "zod";

const scores = z
  .strictObject({
    count: z.number().describe("Numeric scores of live evaluators on these runs"),
    mean: z.number().optional().describe("Their mean; left out when nothing was scored"),
    verdict_count: z.number().describe("Pass/fail verdicts"),
    pass_rate: z.number().optional().describe("Share of verdicts that passed; left out when there is none"),
  })
  .describe("Live evaluators' results on these runs");

const summary = {
  runs: z.number().describe("Runs (turns) in the window"),
  errors: z.number(),
  first_at: z.string().describe("Start of the earliest run"),
  last_at: z.string().describe("End of the latest run"),
  latency_ms: z.strictObject({ mean: z.number(), max: z.number() }),
  cost: z.number().describe("USD: each run's total (the sum of its kinds when it reports no total)"),
  tokens: z.number().describe("Each run's total tokens (prompt + completion when it reports no total)"),
  scores,
  agents: z.array(z.string()).describe("Agent ids of the runs"),
};

export const sessionSummaryWire = z.strictObject({
  session_id: z.string(),
  user_ids: z.array(z.string()).describe("User ids the session's runs carry"),
  ...summary,
});

export const userSummaryWire = z.strictObject({
  user_id: z.string(),
  sessions: z.number().describe("Distinct sessions of the user's runs"),
  ...summary,
});

export const sessionTurnWire = z.strictObject({
  trace_id: z.string(),
  name: z.string().describe("The run's root span name"),
  agent: z.string().optional(),
  user_id: z.string().optional(),
  started_at: z.string(),
  duration_ms: z.number(),
  error: z.boolean(),
  cost: z.number(),
  tokens: z.number(),
  scores,
});

export const sessionsListWire = z.strictObject({ count: z.number(), sessions: z.array(sessionSummaryWire) });
export const usersListWire = z.strictObject({ count: z.number(), users: z.array(userSummaryWire) });
export const sessionTurnsWire = z.strictObject({
  count: z.number(),
  session_id: z.string(),
  turns: z.array(sessionTurnWire),
});
