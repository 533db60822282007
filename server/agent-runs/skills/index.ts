export { sandboxAllowsExecutables, skillFiles, skillPath, SKILLS_FOLDER } from "./skill-files";
export { skillMarkdown } from "./skill-markdown";
export { skillsPrompt } from "./skills-prompt";
export { skillsSeed } from "./skills-seed";
