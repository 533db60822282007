import type { Page } from "@/server/core/windowing";
import type { RequestContext } from "@/server/http/route";
import type { Scope } from "../records";

export function scopeOf(ctx: RequestContext<"api_key">): Scope {
  return { projectId: ctx.principal.projectId, userId: ctx.principal.userId };
}

/** `{count, <entities>: [...], windowing: {next}}`; `next` only when the page was full. */
export function pageBody<T, W>(key: string, page: Page<T & { id: string }>, toWire: (item: T) => W) {
  return {
    count: page.items.length,
    [key]: page.items.map(toWire),
    ...(page.next ? { windowing: { next: page.next } } : {}),
  };
}
