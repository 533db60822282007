export { InvalidAgentTemplateError, isInvalidAgentTemplateError } from "./invalid-agent-template-error";
export { parseAgentTemplate } from "./parse-agent-template";
export { describeTemplateErrors, type TemplateError } from "./template-error";
export { validateAgentTemplate, type AgentTemplateValidation } from "./validate-agent-template";
