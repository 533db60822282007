import type { SecretData } from "./secret-input";

/** A stored secret with its data opened; only server code sees `data.provider.key`. */
export interface VaultSecret {
  id: string;
  projectId: string;
  slug: string;
  name: string;
  description: string | null;
  kind: "provider_key" | "custom_provider";
  /** The provider id, or `custom`. */
  provider: string;
  data: SecretData;
  keyTail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type CustomProviderData = Extract<import("./secret-input").SecretInput["secret"], { kind: "custom_provider" }>["data"];

export function isCustomProvider(data: SecretData): data is CustomProviderData {
  return data.kind === "custom" && "models" in data;
}
