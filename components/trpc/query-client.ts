import { QueryClient } from "@tanstack/react-query";

export function createQueryClient(): QueryClient {
  return new QueryClient({
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

function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === "number" && status >= 400 && status < 500;
}
