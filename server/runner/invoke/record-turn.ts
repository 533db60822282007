import type { AppContext } from "@/server/http/app-context";
import { recordRunTrace } from "../record-run-trace";
import { notifyRunFinished } from "../run-listeners";
import type { TurnInput } from "../run-types";
import type { TurnHandle } from "../start-turn";

/** When the turn ends: tell the run listeners and write its spans (the provider key redacted). */
export function recordTurn(app: AppContext, input: TurnInput, turn: TurnHandle): void {
  void turn.record.then((record) => {
    notifyRunFinished(record);
    return recordRunTrace(app, record, input.connection.apiKey ? [input.connection.apiKey] : []);
  });
}
