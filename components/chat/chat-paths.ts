import { variantTabPath } from "@/components/agents/agent-paths";

/** The chat page's URLs: a stored session, a run opened from its trace, or side-by-side compare. */
export function chatPath(
  agentId: string,
  variantId: string,
  open: { session?: string; trace?: string; revision?: string; compare?: boolean } = {},
): string {
  const params = new URLSearchParams();
  if (open.revision) params.set("revision", open.revision);
  if (open.session) params.set("session", open.session);
  if (open.trace) params.set("trace", open.trace);
  if (open.compare) params.set("compare", "1");
  const query = params.toString();
  const base = variantTabPath(agentId, variantId, "chat");
  return query ? `${base}?${query}` : base;
}
