export { CodeView } from "./code-view";
export { CompareView } from "./compare-view";
export { DiffStatsBadge } from "./diff-stats";
export { DiffView, type DiffViewProps } from "./diff-view";
export {
  diffJson,
  diffLines,
  diffStats,
  foldUnchanged,
  hasChanges,
  inlineChanges,
  type DiffBlock,
  type DiffRow,
  type DiffStats,
} from "./line-diff";
export { RevisionPicker, type PickableRevision } from "./revision-picker";
export { readableJson } from "./readable-json";
