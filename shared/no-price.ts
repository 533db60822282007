/**
 * What every page shows where a cost cannot be given because a model has no price (a chart, a
 * trace, a run, an evaluation, a model's facts): one wording, so it reads as one fact.
 */
export const NO_PRICE = "No price";
