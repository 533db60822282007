export {
  batchOutputsSchema,
  foldBatch,
  type BatchMessage,
  type BatchOutputs,
  type PendingInteraction,
} from "./batch-fold";
export type { ContentBlock, NativeMessage } from "./content-block";
export { toFinishReason, toUiFinishReason, type ContractFinishReason } from "./finish-reason";
export { readInboundMessages } from "./inbound-messages";
export {
  isContentEvent,
  NO_OUTPUT_MESSAGE,
  RUN_TAKEN_OVER,
  type InteractionKind,
  type NativeEvent,
  type RunUsage,
} from "./native-event";
export { nativeFrameStream, toNativeFrame, type NativeFrame } from "./native-frames";
export {
  MESSAGES_FORMAT_HEADER,
  negotiateFormat,
  negotiateTransport,
  type MessagesFormat,
  type Transport,
} from "./negotiate";
export { NotAcceptableError } from "./not-acceptable-error";
export { keepaliveStream, ndjsonStream, SSE_DONE, SSE_KEEPALIVE, sseStream } from "./sse";
export { UiMessageProjection, uiMessageStream, type UiProjectionOptions } from "./ui-message-projection";
export { batchTurnSchema, SSE_HEADERS, turnResponse, type TurnResponseOptions } from "./turn-response";
export { TURN_HEADERS } from "./turn-headers";
export {
  chatCompletionWire,
  chatFinishReason,
  OpenAiChatProjection,
  openAiChatStream,
  type ChatCompletion,
  type ChatStreamItem,
  type OpenAiChatOptions,
} from "./openai-chat-projection";
export {
  OpenAiResponsesProjection,
  openAiResponsesStream,
  responseObjectWire,
  type OpenAiResponsesOptions,
  type ResponseObject,
  type ResponseStreamEvent,
} from "./openai-responses-projection";
