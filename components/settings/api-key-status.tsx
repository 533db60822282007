import { Badge } from "@/components/ui";
import type { ApiKey } from "./types";

export function ApiKeyStatus({ apiKey }: { apiKey: Pick<ApiKey, "revoked_at"> }) {
  if (apiKey.revoked_at) {
    return (
      <Badge tone="danger" dot>
        Revoked
      </Badge>
    );
  }
  return (
    <Badge tone="success" dot>
      Active
    </Badge>
  );
}
