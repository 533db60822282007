import {
  DaytonaAuthenticationError,
  DaytonaConnectionError,
  DaytonaError,
  DaytonaForbiddenError,
} from "@daytonaio/sdk";
import type { DaytonaSettings } from "@/server/core/config";

/**
 * What a tool call tells the model when Daytona fails: who failed and how, worded from the
 * error's class and status. Daytona's own message is kept (it describes the sandbox, never our key).
 */
export function describeDaytonaError(error: unknown, settings: DaytonaSettings): Error {
  if (!(error instanceof DaytonaError)) return error instanceof Error ? error : new Error(String(error));
  if (error instanceof DaytonaAuthenticationError || error instanceof DaytonaForbiddenError) {
    return new Error(
      `Daytona refused this deployment's DAYTONA_API_KEY (${error.statusCode ?? "no status"}): ${error.message}`,
    );
  }
  if (error instanceof DaytonaConnectionError)
    return new Error(`Daytona's API at ${settings.apiUrl} could not be reached: ${error.message}`);
  return new Error(`Daytona answered ${error.statusCode ?? "with an error"}: ${error.message}`);
}
