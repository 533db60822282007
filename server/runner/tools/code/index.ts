export { codeToolFactory, secretEnvName } from "./code-tool-factory";
