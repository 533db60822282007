import type { TestcaseData } from "./testset-table";

/**
 * Rows whose `messages` column is not a conversation (a list of `{role, content}`): an agent
 * evaluation sends such a row as JSON of all its columns, not as the text it holds
 * (server/evaluations' agentMessages), so the editor warns before that happens.
 */
export function textInMessagesColumn(rows: readonly TestcaseData[]): number {
  return rows.filter((row) => row.messages !== undefined && row.messages !== null && !Array.isArray(row.messages))
    .length;
}
