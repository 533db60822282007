import { endCanaryWithSplit } from "@/server/canaries";
import type { AppContext } from "@/server/core/app-context";
import { setSplitEndHandlers } from "@/server/domains";

/**
 * Who hears, in the commit's transaction, that an environment commit ended a key's split: the
 * canaries (a plain deploy of the key ends its running canary as `replaced`). Passed in here, as
 * the canaries sit above the environments domain they deploy through. Called once per app context
 * (appContextOf, and the test app), with that context's clock.
 */
export function passSplitEndHandlers(app: AppContext): void {
  setSplitEndHandlers([endCanaryWithSplit(() => app.now())]);
}
