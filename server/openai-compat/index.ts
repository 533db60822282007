export { bearerAsApiKey } from "./bearer-key";
export { openAiErrorReply, type OpenAiErrorBody } from "./openai-error";
export { openAiRoutes } from "./routes";
export { promptApplicationRun, type PromptApplicationRun } from "./prompt-application";
export { eraseSessionResponses } from "./erase-responses";
