import { describe, expect, it } from "vitest";
import { parseAgentTemplate } from "@/server/agent-template";
import { skillFiles } from "./skill-files";
import { skillMarkdown } from "./skill-markdown";
import { skillsPrompt } from "./skills-prompt";
import { skillsSeed } from "./skills-seed";

const skill = (extra: Record<string, unknown> = {}) => ({
  name: "pdf-tools",
  description: "Fill PDF forms",
  body: "Run scripts/fill.sh.",
  files: [],
  disable_model_invocation: false,
  allow_executable_files: false,
  ...extra,
});
const file = (path: string, executable = false) => ({ path, content: `# ${path}`, executable });

describe("skills in the workspace", () => {
  it("SKILL.md is YAML frontmatter then the body; a description with YAML syntax stays one quoted scalar", () => {
    expect(skillMarkdown(skill())).toBe(
      '---\nname: pdf-tools\ndescription: "Fill PDF forms"\ndisable-model-invocation: false\n---\n\nRun scripts/fill.sh.',
    );
    expect(
      skillMarkdown(skill({ description: 'Use when: "forms"\n---\nnot: frontmatter', disable_model_invocation: true })),
    ).toContain('description: "Use when: \\"forms\\"\\n---\\nnot: frontmatter"\ndisable-model-invocation: true\n---');
  });

  it("a bundled file is executable only when the skill, the file and the sandbox all allow it", () => {
    const files = [file("scripts/fill.sh", true), file("docs/notes.md")];
    const modes = (allowed: boolean, allowSkill: boolean) =>
      Object.fromEntries(
        skillFiles([skill({ allow_executable_files: allowSkill, files })], allowed).map((f) => [
          f.path,
          f.mode.toString(8),
        ]),
      );
    expect(modes(true, true)).toEqual({
      "skills/pdf-tools/SKILL.md": "644",
      "skills/pdf-tools/scripts/fill.sh": "755",
      "skills/pdf-tools/docs/notes.md": "644",
    });
    expect(modes(false, true)["skills/pdf-tools/scripts/fill.sh"]).toBe("644");
    expect(modes(true, false)["skills/pdf-tools/scripts/fill.sh"]).toBe("644");
  });

  it("the prompt lists name, description and path, never a skill the model may not invoke by itself", () => {
    const prompt = skillsPrompt([
      skill(),
      skill({ name: "secret-recipe", description: "Hidden one", disable_model_invocation: true }),
    ]);
    expect(prompt).toContain("- pdf-tools: Fill PDF forms (/workspace/skills/pdf-tools/SKILL.md)");
    expect(prompt).not.toContain("secret-recipe");
    expect(prompt).not.toContain("Hidden one");
    expect(prompt).toContain("/workspace/skills/<name>/SKILL.md");
    expect(skillsPrompt([])).toBe("");
  });

  it("a hidden skill is named only in a turn whose user message names it", () => {
    const skills = [
      skill(),
      skill({ name: "release-checklist", description: "Hidden one", disable_model_invocation: true }),
    ];
    for (const text of ["/release-checklist please", "run the release-checklist skill"]) {
      expect(skillsPrompt(skills, text)).toContain(
        "The user asked for the skill release-checklist: read /workspace/skills/release-checklist/SKILL.md first",
      );
    }
    for (const text of ["release-checklists", "my-release-checklist", "release checklist"])
      expect(skillsPrompt(skills, text)).not.toContain("release-checklist");
  });

  it("refuses skills the agent could not read, and two skills of one name", () => {
    const template = (tools: unknown[], skills: unknown[]) => parseAgentTemplate({ tools, skills }).template;
    expect(() => skillsSeed(template([], [skill()]))).toThrow(/neither the "read" nor the "bash" built-in/);
    expect(() => skillsSeed(template([{ type: "builtin", name: "read" }], [skill(), skill()]))).toThrow(
      'skills[1].name: a skill named "pdf-tools" is already declared',
    );
    expect(skillsSeed(template([{ type: "builtin", name: "bash" }], [skill()]))?.folders).toEqual(["skills/pdf-tools"]);
    expect(skillsSeed(template([], []))).toBeUndefined();
  });

  it("a sandbox that declares a read-only or absent file system keeps every file non-executable", () => {
    const sandbox = (filesystem: string) => ({
      kind: "local",
      permissions: { network: { mode: "off" }, filesystem, enforcement: "best_effort" },
    });
    const seed = (filesystem: string) =>
      skillsSeed(
        parseAgentTemplate({
          tools: [{ type: "builtin", name: "read" }],
          skills: [skill({ allow_executable_files: true, files: [file("run.sh", true)] })],
          sandbox: sandbox(filesystem),
        }).template,
      )!;
    expect(seed("on").files.find((f) => f.path.endsWith("run.sh"))?.mode).toBe(0o755);
    expect(seed("readonly").files.find((f) => f.path.endsWith("run.sh"))?.mode).toBe(0o644);
    expect(seed("off").files.find((f) => f.path.endsWith("run.sh"))?.mode).toBe(0o644);
  });
});
