/** One template of the validation corpus, with the verdict both validators must reach. */
export interface CorpusCase {
  name: string;
  input: unknown;
  /** Expected errors (exact path, message substring); absent = the template is valid. */
  errors?: { path: string; message: string }[];
}

export const valid = (name: string, input: unknown): CorpusCase => ({ name, input });

export const invalid = (name: string, input: unknown, ...errors: [path: string, message: string][]): CorpusCase => ({
  name,
  input,
  errors: errors.map(([path, message]) => ({ path, message })),
});
