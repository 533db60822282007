/** Every view of an agent's history has a URL; these build them in one place. */
export const agentPaths = {
  editor: (agentId: string, variantId: string) => `/agents/${agentId}/variants/${variantId}`,
  history: (agentId: string, variantId: string) => `/agents/${agentId}/variants/${variantId}/history`,
  revision: (agentId: string, variantId: string, revisionId: string) =>
    `/agents/${agentId}/variants/${variantId}/revisions/${revisionId}`,
  diff: (agentId: string, variantId: string, from: string, to: string) =>
    `/agents/${agentId}/variants/${variantId}/diff?${new URLSearchParams({ from, to })}`,
  deploy: (agentId: string, variantId: string, revisionId?: string) =>
    `/agents/${agentId}/variants/${variantId}/deploy${revisionId ? `?${new URLSearchParams({ revision: revisionId })}` : ""}`,
};
