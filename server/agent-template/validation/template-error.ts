/** One problem in a template: where (`tools[2].name`, root = "") and what to do about it. */
export interface TemplateError {
  path: string;
  message: string;
}

const SHOWN = 3;

/** The first problems as one line, for an error response's `detail`; `errors` carries them all. */
export function describeTemplateErrors(errors: readonly TemplateError[]): string {
  const shown = errors.slice(0, SHOWN).map((error) => (error.path ? `${error.path}: ${error.message}` : error.message));
  const more = errors.length > SHOWN ? ` (and ${errors.length - SHOWN} more)` : "";
  return `Agent template is invalid: ${shown.join("; ")}${more}`;
}
