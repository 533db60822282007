"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/trpc";
import { deepEqual } from "./deep-equal";
import { serverErrorsToIssues, serverWarningToIssue } from "./server-issues";
import type { TemplateIssue } from "./template-issue";

interface Verdict {
  forValue: unknown;
  issues: TemplateIssue[];
}

const RECHECK_AFTER_MS = 400;

/**
 * The server's word on the template: recorded from a commit, then kept current with
 * `agents.validate` while the person fixes what it found, until it has nothing left to say.
 * `issues` is null when the server has not judged the current value.
 */
export function useServerVerdict(value: unknown, canCheck: boolean, initial: Verdict | null) {
  const trpc = useTRPC();
  const [verdict, setVerdict] = useState<Verdict | null>(initial);
  const validate = useMutation(trpc.agents.validate.mutationOptions());
  const { mutateAsync } = validate;
  const current = verdict !== null && deepEqual(verdict.forValue, value);

  useEffect(() => {
    if (verdict === null || current || !canCheck) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const result = await mutateAsync({ template: value });
        if (cancelled) return;
        const issues = [...serverErrorsToIssues(result.errors), ...result.warnings.map(serverWarningToIssue)];
        setVerdict(issues.length > 0 ? { forValue: value, issues } : null);
      } catch {
        // Offline or failing: fall back to the schema check in the browser.
        if (!cancelled) setVerdict(null);
      }
    }, RECHECK_AFTER_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [value, verdict, current, canCheck, mutateAsync]);

  return {
    issues: current ? verdict.issues : null,
    checking: validate.isPending || (verdict !== null && !current),
    record: (forValue: unknown, issues: TemplateIssue[]) => setVerdict(issues.length > 0 ? { forValue, issues } : null),
  };
}
