import { AsyncLocalStorage } from "node:async_hooks";

/** Who is acting in this request, as the audit log records it. */
export interface AuditActor {
  userId?: string;
  apiKeyId?: string;
  /** Computed on first read: most requests record nothing. */
  readonly clientAddress?: string;
}

const storage = new AsyncLocalStorage<AuditActor>();

/**
 * Runs `fn` with `actor` as the request's actor. The two doors (the REST router and tRPC) set it
 * once they know the caller; every change function deep in an area then records who did it
 * without each of their signatures, in eight areas, carrying the caller along.
 */
export function withAuditActor<T>(actor: AuditActor, fn: () => T): T {
  return storage.run(actor, fn);
}

/** The request's actor, or undefined outside a request (workers, scripts: the system). */
export function currentAuditActor(): AuditActor | undefined {
  return storage.getStore();
}
