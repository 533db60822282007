import { Badge } from "@/components/ui";
import type { ApiKey } from "./types";

export function ApiKeyStatus({ apiKey, now }: { apiKey: Pick<ApiKey, "revoked_at" | "expires_at">; now: number }) {
  if (apiKey.revoked_at) {
    return (
      <Badge tone="danger" dot>
        Revoked
      </Badge>
    );
  }
  if (apiKey.expires_at && Date.parse(apiKey.expires_at) <= now) {
    return (
      <Badge tone="warning" dot>
        Expired
      </Badge>
    );
  }
  return (
    <Badge tone="success" dot>
      Active
    </Badge>
  );
}
