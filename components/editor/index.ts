export { AgentEditor } from "./agent-editor";
export { AgentEditorSkeleton } from "./agent-editor-skeleton";
