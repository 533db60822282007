import type { AppContext } from "@/server/core/app-context";

/** The service's address as clients reach it: PUBLIC_URL, else the request's own origin. */
export function baseUrlOf(app: Pick<AppContext, "config">, request: Request): string {
  return (app.config.publicUrl ?? new URL(request.url).origin).replace(/\/+$/, "");
}
