import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A session that ended (logged out in another tab, expired) sends the visitor to log in again.
    queryCache: new QueryCache({ onError: toLoginWhenSignedOut }),
    mutationCache: new MutationCache({ onError: toLoginWhenSignedOut }),
    defaultOptions: {
      queries: {
        // Mutations invalidate what they change; this only spares refetches on every remount and focus.
        staleTime: 30_000,
        // A 4xx will not change on retry; network blips may.
        retry: (failures, error) => failures < 2 && !isClientError(error),
      },
    },
  });
}

function statusOf(error: unknown): number | undefined {
  return (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
}

function isClientError(error: unknown): boolean {
  const status = statusOf(error);
  return typeof status === "number" && status >= 400 && status < 500;
}

/** Set while logging out: queries refused meanwhile must not send the visitor to log in "back to" this page. */
let signingOut = false;

/** The visitor pressed Log out: the 401s that follow are expected, the logout decides where to go. */
export function markSigningOut(): void {
  signingOut = true;
}

function toLoginWhenSignedOut(error: unknown): void {
  if (typeof window === "undefined" || signingOut || statusOf(error) !== 401) return;
  window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}
