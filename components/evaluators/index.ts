export { EvaluatorsIcon } from "./evaluators-icon";
export { EvaluatorsList } from "./evaluators-list";
export { EvaluatorName } from "./evaluator-name";
export { EvaluatorView } from "./evaluator-view";
export { NewEvaluator } from "./new-evaluator";
export { evaluatorPath, evaluatorsPath, newEvaluatorPath } from "./evaluator-paths";
