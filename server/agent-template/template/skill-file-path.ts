import { boundedText } from "./text";

/**
 * Paths of files laid beside SKILL.md. Each rule is a pattern (not a refinement) so the catalog's
 * JSON Schema carries it unchanged. `./SKILL.md` counts as the root SKILL.md too.
 */
export const skillFilePathSchema = boundedText(1, 255)
  .regex(/^(?!\/)/, 'must be relative: remove the leading "/"')
  .regex(/^[^\\]*$/, 'must use "/" as the separator; backslashes are not allowed')
  .regex(/^(?![\s\S]*(?:^|\/)\.\.(?:\/|$))/, 'must not contain a ".." segment')
  .regex(/^(?!(?:\.\/)*SKILL\.md$)/, "must not be the root SKILL.md: that file is generated from the skill's body")
  .describe('Relative POSIX path, 1 to 255 characters; no leading "/", backslash, ".." segment or root SKILL.md.');
