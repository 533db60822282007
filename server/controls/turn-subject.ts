/** Who a turn runs for, as the controls see it. */
export interface TurnSubject {
  projectId: string;
  /** The API key that asked (none for a playground session or a worker acting for the project). */
  apiKeyId?: string;
  /** The agent (workflow artifact) that runs; none for an inline template. */
  agentId?: string;
}

/** A model a turn may call: a provider and its model id. */
export interface ModelTarget {
  provider: string;
  model: string;
}
