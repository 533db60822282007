/** A native content block (the interface contract "Content block"), camelCase; unset fields omitted. */
export interface ContentBlock {
  type: "text" | "image" | "resource" | "tool_call" | "tool_result";
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
  isError?: boolean;
  /** Set on a tool_result that answers an approval. */
  approved?: boolean;
  interactionToken?: string;
}

export interface NativeMessage {
  role: string;
  content: ContentBlock[];
}
