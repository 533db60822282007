/** A failed load as a person should read it: what happened in plain words, and whether trying again can help. */
export interface LoadErrorText {
  message: string;
  /** True only when the same request may succeed later (the server or the network failed). */
  retry: boolean;
  notFound: boolean;
}

interface ErrorLike {
  message?: string;
  data?: { httpStatus?: number | null } | null;
}

/**
 * Validation messages ("Request body is invalid: id: Invalid UUID") are written for API clients;
 * on a page they mean the address is wrong, which asking again will not fix. Conflicts and other
 * 4xx messages are already worded for people and pass through.
 */
export function describeLoadError(error: unknown): LoadErrorText {
  const e = (error ?? {}) as ErrorLike;
  const status = e.data?.httpStatus ?? undefined;
  const raw = typeof e.message === "string" ? e.message : String(error);
  if (status === 404)
    return {
      message: "It does not exist, or it is not in the project you are working in.",
      retry: false,
      notFound: true,
    };
  if (status === 400 || status === 422) {
    return {
      message: "The address is incomplete or has a typo. Go back and pick it again from the list.",
      retry: false,
      notFound: true,
    };
  }
  if (status === 401)
    return { message: "Your session has ended. Log in again to continue.", retry: false, notFound: false };
  if (status === 403)
    return {
      message: "Your role in this project does not allow this. An owner can change it.",
      retry: false,
      notFound: false,
    };
  if (status !== undefined && status < 500) return { message: raw, retry: false, notFound: false };
  if (status === undefined && /fetch|network|load failed/i.test(raw)) {
    return {
      message: "Could not reach the server. Check the connection, then try again.",
      retry: true,
      notFound: false,
    };
  }
  return {
    message:
      "The server could not answer just now. Try again in a moment; if it keeps failing, the server log has the details.",
    retry: true,
    notFound: false,
  };
}
