export { referenceToolFactory } from "./reference-tool-factory";
