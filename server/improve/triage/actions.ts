import { BadRequestError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { appendTestcases, DOMAIN_SPECS } from "@/server/domains";
import { createSimple, type RevisionRecord, type Scope } from "@/server/versioning";
import { findFailureMode, findTriage, type FailureModeRecord } from "./store";
import { DEFAULT_TRIAGE_JUDGE, judgeRubric, sharedPhrase, checkScript } from "./evaluator-proposal";

interface Example {
  input?: unknown;
  output?: unknown;
  feedback?: string;
  expected?: unknown;
}

/**
 * A testcase from an example: its input's columns (an input that is no object becomes `input`),
 * and `correct_answer` (the column the evaluators compare with by default) where a person's
 * annotation or correction said what the output should have been. Pure.
 */
export function testcaseOf(example: Example): Record<string, unknown> {
  const input = example.input;
  const columns: Record<string, unknown> =
    input !== null && typeof input === "object" && !Array.isArray(input)
      ? { ...(input as Record<string, unknown>) }
      : { input: input ?? null };
  if (example.expected !== undefined)
    columns.correct_answer = typeof example.expected === "string" ? example.expected : JSON.stringify(example.expected);
  return columns;
}

/**
 * The mode's examples as testcases: a new testset (named `name`, else after the mode), or a new
 * revision of `testset_id` with the rows added after those it has.
 */
export async function failureModeToTestset(
  db: Database,
  scope: Scope,
  id: string,
  body: { testset_id?: string; name?: string },
) {
  const mode = await findFailureMode(db, scope.projectId, id);
  const rows = (mode.examples as Example[]).map(testcaseOf);
  const message = `${rows.length} ${rows.length === 1 ? "example" : "examples"} of the failure mode "${mode.name}"`;
  let revision: RevisionRecord;
  if (body.testset_id) {
    revision = (
      await appendTestcases(db, scope, { testsetId: body.testset_id, testcases: rows, message: `Add ${message}` })
    ).revision;
  } else {
    const created = await createSimple(db, scope, DOMAIN_SPECS.testsets, {
      name: body.name ?? mode.name,
      description: mode.description,
      data: { testcases: rows },
      message: `Testset from ${message}`,
    });
    revision = created.revision!;
  }
  return {
    testset_id: revision.artifactId,
    testset_slug: revision.artifactSlug,
    revision_id: revision.id,
    version: String(revision.version),
    testcases: rows.length,
  };
}

/**
 * Proposes an evaluator that catches the mode and creates it as an evaluator artifact (revision
 * 1): an LLM judge whose rubric is the mode's name, description and the feedback of its examples
 * (on the triage's model, else the judge's default); a regex that fails outputs holding the
 * phrase every example's output shares; or a JavaScript check of that phrase and of the mode's
 * failing tool. A regex or code check with nothing to test is refused (`no_common_pattern`).
 */
export async function failureModeToEvaluator(
  db: Database,
  scope: Scope,
  id: string,
  body: { kind: "llm_judge" | "regex" | "code" },
) {
  const mode = await findFailureMode(db, scope.projectId, id);
  const proposal = await propose(db, scope, mode, body.kind);
  const created = await createSimple(db, scope, DOMAIN_SPECS.evaluators, {
    name: `Catches: ${mode.name}`.slice(0, 200),
    description: mode.description,
    data: proposal.data,
    message: `Proposed from the failure mode "${mode.name}"`,
  });
  const revision = created.revision!;
  return {
    evaluator_id: revision.artifactId,
    evaluator_slug: revision.artifactSlug,
    revision_id: revision.id,
    kind: body.kind,
    summary: proposal.summary,
  };
}

async function propose(
  db: Database,
  scope: Scope,
  mode: FailureModeRecord,
  kind: "llm_judge" | "regex" | "code",
): Promise<{ data: Record<string, unknown>; summary: string }> {
  const examples = mode.examples as Example[];
  if (kind === "llm_judge") {
    const triage = await findTriage(db, scope.projectId, mode.triageId);
    const model = triage.model ?? DEFAULT_TRIAGE_JUDGE;
    return {
      data: {
        uri: "svc:builtin:auto_ai_critique:v0",
        parameters: {
          model,
          prompt_template: judgeRubric(mode.name, mode.description, examples),
          threshold: 0.5,
        },
      },
      summary: `An LLM judge (${model}) scores 0 when an output shows "${mode.name}", 1 when it does not`,
    };
  }
  const phrase = sharedPhrase(examples.map((e) => e.output));
  const tool = mode.signature.tool;
  if (kind === "regex") {
    if (!phrase)
      throw new BadRequestError(
        `the examples of "${mode.name}" share no phrase in their outputs that a regex could look for; propose an llm_judge instead`,
        "no_common_pattern",
      );
    return {
      data: {
        uri: "svc:builtin:auto_regex_test:v0",
        parameters: { regex_pattern: phrase.pattern, regex_should_match: false, case_sensitive: false },
      },
      summary: `Fails an output that contains "${phrase.text}" (every example's output does)`,
    };
  }
  if (!phrase && !tool)
    throw new BadRequestError(
      `the examples of "${mode.name}" share no output phrase and no failing tool that code could check; propose an llm_judge instead`,
      "no_common_pattern",
    );
  return {
    data: { uri: "svc:custom:code:v0", runtime: "javascript", script: checkScript(phrase?.text, tool) },
    summary: [
      ...(phrase ? [`fails an output that contains "${phrase.text}"`] : []),
      ...(tool ? [`fails a run whose tool ${tool} failed`] : []),
    ]
      .join(" and ")
      .replace(/^./, (c) => c.toUpperCase()),
  };
}
