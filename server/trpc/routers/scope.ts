import type { Principal } from "@/server/auth";
import type { Scope } from "@/server/versioning";

export function scopeOf(ctx: { principal: Principal }): Scope {
  return { projectId: ctx.principal.projectId, userId: ctx.principal.userId };
}
