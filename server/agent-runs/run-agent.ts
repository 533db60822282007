/** Which agent runs: a committed workflow revision, an inline draft of a saved agent (its artifact and variant), or an inline template (no references). */
export interface RunAgent {
  name?: string;
  references?: Record<string, { id: string; slug?: string | null; version?: string | null }>;
}
