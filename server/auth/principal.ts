/** Who is calling: resolved from an API key, and the scope of every query the request makes. */
export interface Principal {
  projectId: string;
  userId: string;
  apiKeyId?: string;
}
