/** The evaluator people score with in review queues: it never runs, its values are annotations. */
export const HUMAN_FEEDBACK_URI = "svc:custom:feedback:v0";
