/** Every view of a testset has a URL; these build them in one place. */
export const testsetPaths = {
  list: () => "/testsets",
  editor: (id: string) => `/testsets/${id}`,
  history: (id: string) => `/testsets/${id}/history`,
  diff: (id: string, from: string, to: string) => `/testsets/${id}/diff?${new URLSearchParams({ from, to })}`,
};
