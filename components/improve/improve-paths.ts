/** Addresses of the improvement loop's pages. */
export const improvePath = () => "/improve";
export const triagePath = (id: string) => `/improve/triages/${id}`;
export const optimizationPath = (id: string) => `/improve/optimizations/${id}`;
