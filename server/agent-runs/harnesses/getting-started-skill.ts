import type { AgentTemplate } from "@/server/agent-template";

type Skill = AgentTemplate["skills"][number];

/** The skill the service harness adds to every template (the interface contract skill shape). */
export const GETTING_STARTED_SKILL: Skill = {
  name: "getting-started",
  description:
    "How this agent service works: workflows, variants and revisions, agent templates, environments, traces, and the platform tools that read and change them. Load it before inspecting or editing agents, workflows or traces.",
  body: `# Getting started with the agent service

This service stores **versioned resources** and runs **agents**.

## Versioning

- A workflow is an artifact (a repository); it has variants (branches, the first is \`default\`),
  and each variant accumulates immutable revisions (commits) numbered 1, 2, 3 per variant.
- An agent is a workflow whose revision carries an agent template at \`data.parameters.agent\`.
- Environments (\`development\`, \`staging\`, \`production\`) point at revisions; deploying moves the
  pointer and never changes a revision.

## The agent template

One JSON object: \`instructions.agents_md\` (the system prompt), \`llm\` (\`model\`, \`provider\`,
\`connection\`), \`tools\` (entries of type \`builtin\`, \`client\`, \`code\`, \`reference\`, \`platform\`,
\`gateway\`), \`mcps\`, \`skills\`, \`harness\`, \`runner\` (\`permissions.default\`: allow, ask, deny or
allow_reads) and \`sandbox\`. Unknown keys are rejected, so change only the fields you mean to.

## Your platform tools

- \`discover_agents\` and \`discover_workflows\`: what this project holds.
- \`retrieve_revision\`: a revision with its data; with no arguments, your own latest revision.
- \`commit_revision\`: a new revision of yourself (your own variant only); send the whole
  \`data\` (retrieve first, change it, commit it back) and a short message.
- \`query_traces\`: recent runs and their spans (\`invoke_agent > turn > chat / execute_tool\`), with
  filtering such as \`{"operator": "and", "conditions": [{"field": "status_code", "value": "STATUS_CODE_ERROR"}]}\`.
- \`discover_tools\`: every operation above with its arguments.

The project and your own variant come from the run: you cannot act on another project or
commit to another agent.

## Running agents

\`POST /services/agent/v0/invoke\` with \`references\` (a workflow revision) or an inline
\`data.parameters.agent\`, and messages at \`data.inputs.messages\`. Replies come as batch JSON,
SSE or NDJSON, in native frames or the AI SDK UI message stream; every run is a trace.
`,
  files: [],
  disable_model_invocation: false,
  allow_executable_files: false,
};
