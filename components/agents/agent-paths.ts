/** Every view of the agents area has a URL; they are built here and nowhere else. */
export type EditorView = "form" | "json";
export type AgentTab = "editor" | "chat" | "history" | "deploy" | "runs" | "connect";

export function agentsListPath({ q, archived }: { q?: string; archived?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (archived) params.set("archived", "1");
  const query = params.toString();
  return query ? `/agents?${query}` : "/agents";
}

export function agentPath(agentId: string): string {
  return `/agents/${agentId}`;
}

export function variantTabPath(agentId: string, variantId: string, tab: AgentTab): string {
  const base = `/agents/${agentId}/variants/${variantId}`;
  return tab === "editor" ? base : `${base}/${tab}`;
}

export function editorPath(agentId: string, variantId: string, view: EditorView = "form"): string {
  const base = variantTabPath(agentId, variantId, "editor");
  return view === "json" ? `${base}?view=json` : base;
}

/** Which tab a pathname under `/agents/[id]/variants/[variantId]` shows (revision and diff pages belong to History). */
export function tabOfPath(pathname: string): AgentTab {
  const rest = pathname.split("/").slice(5);
  if (rest[0] === "deploy") return "deploy";
  if (rest[0] === "chat") return "chat";
  if (rest[0] === "runs") return "runs";
  if (rest[0] === "connect") return "connect";
  if (rest.length > 0 && rest[0] !== "") return "history";
  return "editor";
}

/** The same view of another variant: `/agents/a/variants/v1/history` -> `/agents/a/variants/v2/history`. */
export function switchVariantPath(pathname: string, agentId: string, variantId: string): string {
  return variantTabPath(agentId, variantId, tabOfPath(pathname));
}
