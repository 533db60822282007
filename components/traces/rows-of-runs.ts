import { testcaseFromConversation } from "@/components/testsets/testcase-from-conversation";
import type { TestcaseData } from "@/components/testsets/testset-table";
import type { TraceRun } from "@/shared/trace-messages";

/** Testcases from agent runs read back from their traces; a run without a user message gives none. */
export function rowsOfRuns(runs: readonly (TraceRun | null)[]): TestcaseData[] {
  return runs.flatMap((run) => {
    const row = run ? testcaseFromConversation(run.messages) : null;
    return row ? [row] : [];
  });
}
