export { ChatMessage } from "./chat-message";
export { ChatPanel } from "./chat-panel";
export { chatPath } from "./chat-paths";
export type { ChatTarget } from "./chat-target";
export { ChatView } from "./chat-view";
export { useViewportFit } from "./use-viewport-fit";
