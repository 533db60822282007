"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/trpc";
import { ajvErrorsToIssues } from "./ajv-issues";
import type { TemplateIssue } from "./template-issue";

export type TemplateValidator = (value: unknown) => TemplateIssue[];

/**
 * The catalog's JSON Schema (the one served at /api/workflows/catalog/types/agent-template),
 * compiled in the browser with ajv; ajv loads on demand so the rest of the page does not wait.
 */
export function useSchemaValidator(): {
  schema: unknown;
  schemaPending: boolean;
  validate: TemplateValidator | null;
  error: string | null;
} {
  const trpc = useTRPC();
  const schema = useQuery({ ...trpc.catalog.agentTemplateSchema.queryOptions(), staleTime: Infinity });
  const [validate, setValidate] = useState<TemplateValidator | null>(null);
  const [compileError, setCompileError] = useState<string | null>(null);

  useEffect(() => {
    if (!schema.data) return;
    let cancelled = false;
    import("ajv/dist/2020")
      .then((mod) => {
        // ajv is CommonJS: depending on the bundler the class is the default export or its `default`.
        const Ajv2020 = ((mod.default as unknown as { default?: typeof mod.default }).default ??
          mod.default) as typeof mod.default;
        const compiled = new Ajv2020({ allErrors: true, strict: false, verbose: true }).compile(schema.data as object);
        const run: TemplateValidator = (value) => (compiled(value) ? [] : ajvErrorsToIssues(compiled.errors));
        if (!cancelled) setValidate(() => run);
      })
      .catch((error: unknown) => {
        if (!cancelled) setCompileError(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
    };
  }, [schema.data]);

  return {
    schema: schema.data,
    schemaPending: schema.isPending,
    validate,
    error: schema.error?.message ?? compileError,
  };
}
