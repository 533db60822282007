import { BadRequestError } from "@/server/core/errors";
import {
  domainKeys,
  type CommitContext,
  type CommitPayload,
  type DomainSpec,
  type PreparedCommit,
} from "@/server/versioning";
import { WORKFLOW_DATA_KEYS } from "../data-keys";
import { evaluatorTemplateByUri, EVALUATOR_TEMPLATES } from "./evaluator-templates";

const BUILTIN = "svc:builtin:";

/**
 * An evaluator revision whose `data.uri` names a built-in template (`svc:builtin:<key>:v0`, or the
 * compat API's `agenta:builtin:<key>:v0`) must
 * carry parameters that template accepts; they are stored as sent (defaults apply when read), like
 * agent templates. Any other uri is the user's own evaluator and is stored unchecked.
 */
export const evaluatorsSpec: DomainSpec = {
  keys: domainKeys("evaluators"),
  dataKeys: WORKFLOW_DATA_KEYS,
  async prepareCommit(_ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit> {
    const data = payload.data ?? {};
    if (typeof data.uri !== "string") return { data };
    // `agenta:` is the compat API's own prefix, which its clients send: the same built-ins.
    const uri = data.uri.replace(/^agenta:/, "svc:");
    if (!uri.startsWith(BUILTIN)) return { data };
    const template = evaluatorTemplateByUri(uri);
    if (!template) {
      throw new BadRequestError(
        `data.uri "${data.uri}" is no built-in evaluator; known: ${EVALUATOR_TEMPLATES.map((t) => t.uri).join(", ")}`,
        "unknown_evaluator",
      );
    }
    const parsed = template.parameters.safeParse(data.parameters ?? {});
    if (!parsed.success) {
      const errors = parsed.error.issues.map((i) => ({
        path: ["data", "parameters", ...i.path].join("."),
        message: i.message,
      }));
      throw new BadRequestError(
        `data.parameters do not fit the ${template.name} evaluator: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
        "invalid_evaluator_parameters",
        errors,
      );
    }
    return { data };
  },
};
