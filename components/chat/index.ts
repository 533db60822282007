export { ChatPanel } from "./chat-panel";
export type { ChatTarget } from "./chat-target";
export { ChatView } from "./chat-view";
