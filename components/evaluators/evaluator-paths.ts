/** Every evaluators view has a URL; they are built here and nowhere else. */
export const evaluatorsPath = () => "/evaluators";
export const newEvaluatorPath = (choice?: { template?: string; preset?: string }) => {
  const params = new URLSearchParams();
  if (choice?.template) params.set("template", choice.template);
  if (choice?.preset) params.set("preset", choice.preset);
  const query = params.toString();
  return query ? `/evaluators/new?${query}` : "/evaluators/new";
};
export const evaluatorPath = (id: string) => `/evaluators/${id}`;
