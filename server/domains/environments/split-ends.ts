import { processWide } from "@/server/core/process-wide";
import type { Transaction } from "@/server/db";

/** A key's split that an environment commit ended. */
export interface EndedSplit {
  projectId: string;
  /** The environment's variant the commit was made to. */
  variantId: string;
  key: string;
}

/** Runs in the commit's transaction for each split the commit ends. */
export type SplitEndHandler = (tx: Transaction, ended: EndedSplit) => Promise<void>;

/** On globalThis (processWide): Next.js loads this module once per route bundle, the handlers are passed once. */
const passed = processWide("environments.split-end-handlers", (_: typeof globalThis) => ({
  handlers: [] as readonly SplitEndHandler[],
}));

/**
 * Who must hear, in the same transaction, that a commit ended a key's split: the composition root
 * passes them in (server/boot: the canaries, which sit above this domain and deploy through it, end
 * a canary whose split a plain deploy replaced). Process-wide, as the environments spec is: every
 * commit of an environment runs through the spec, from any door (REST, tRPC, an agent's platform
 * tool), and none of them carries the app context down to it.
 */
export function setSplitEndHandlers(list: readonly SplitEndHandler[]): void {
  passed(globalThis).handlers = list;
}

export async function splitEnded(tx: Transaction, ended: EndedSplit): Promise<void> {
  for (const handler of passed(globalThis).handlers) await handler(tx, ended);
}
