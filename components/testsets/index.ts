export { AddToTestsetButton } from "./add-to-testset-button";
export { TestsetDiff } from "./testset-diff";
export { TestsetEditor } from "./testset-editor";
export { TestsetHistory } from "./testset-history";
export { TestsetLayout } from "./testset-layout";
export { TestsetsIcon } from "./testsets-icon";
export { TestsetsPage } from "./testsets-page";
