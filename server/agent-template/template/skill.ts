import { z } from "zod";
import { closedObject } from "./closed-object";
import { fieldsParsed } from "./fields-parsed";
import { skillFilePathSchema } from "./skill-file-path";
import { boundedText } from "./text";

const skillFileSchema = closedObject({
  path: skillFilePathSchema,
  content: boundedText(0, 200_000).describe("UTF-8 text, up to 200,000 characters."),
  executable: z.boolean().default(false).describe("Marks the file executable when written out."),
});

export const skillSchema = closedObject({
  name: z
    .string()
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters and digits in "-"-separated groups, e.g. "pdf-tools"')
    .describe("1 to 64 characters matching ^[a-z0-9]+(-[a-z0-9]+)*$."),
  description: boundedText(1, 1024).describe("Shown to the agent at session start; decides when the skill loads."),
  body: boundedText(1, 50_000).describe("The SKILL.md content after the frontmatter."),
  files: z.array(skillFileSchema).default([]).describe("Files laid beside SKILL.md."),
  disable_model_invocation: z
    .boolean()
    .default(false)
    .describe("Hides the skill from the prompt; it loads only when invoked by name."),
  allow_executable_files: z
    .boolean()
    .default(false)
    .describe("Allows bundled files to be marked executable; sandbox policy must also allow it."),
})
  .superRefine(
    (skill, ctx) => {
      if (skill.allow_executable_files || !Array.isArray(skill.files)) return;
      skill.files.forEach((file, index) => {
        if (file?.executable === true) {
          ctx.addIssue({
            code: "custom",
            path: ["files", index, "executable"],
            message: "needs allow_executable_files: true on the skill before a file can be marked executable",
          });
        }
      });
    },
    { when: fieldsParsed("allow_executable_files") },
  )
  .meta({
    if: {
      type: "object",
      properties: { allow_executable_files: { const: true } },
      required: ["allow_executable_files"],
    },
    else: {
      properties: { files: { type: "array", items: { type: "object", properties: { executable: { const: false } } } } },
    },
  })
  .describe("An inline skill package.");

export type Skill = z.output<typeof skillSchema>;
