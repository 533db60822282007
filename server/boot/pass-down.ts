import { endCanaryWithSplit } from "@/server/canaries";
import type { AppContext } from "@/server/core/app-context";
import { setEvidenceReader } from "@/server/deploy-gates";
import { setSplitEndHandlers } from "@/server/domains";
import { latestEvaluation } from "@/server/evaluations";

/**
 * What the environment commit calls that lives above it, passed down here: the canaries hear, in
 * the commit's transaction, that a commit ended a key's split (a plain deploy of the key ends its
 * running canary as `replaced`), and the deploy gate reads its evidence through the evaluations
 * area. Both sit above the environments domain that calls them. Called once per app context
 * (appContextOf, and the test app), with that context's clock.
 */
export function passDownHandlers(app: AppContext): void {
  setSplitEndHandlers([endCanaryWithSplit(() => app.now())]);
  setEvidenceReader(latestEvaluation);
}
