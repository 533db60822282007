import type { CorpusCase } from "./corpus-case";
import { mcpCases } from "./mcp-cases";
import { rootAndLlmCases } from "./root-and-llm-cases";
import { selectorCases } from "./selector-cases";
import { skillCases } from "./skill-cases";
import { toolCases } from "./tool-cases";
import { validCases } from "./valid-cases";

/** Every template both validators are checked against, valid ones first. */
export const corpus: CorpusCase[] = [
  ...validCases,
  ...rootAndLlmCases,
  ...toolCases,
  ...mcpCases,
  ...skillCases,
  ...selectorCases,
];

export type { CorpusCase };
