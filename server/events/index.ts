export { EVENTS_CHANNEL } from "./notify";
export {
  capped,
  changeEventInsert,
  drainEvents,
  emitEvent,
  sendChangeEvent,
  serializedAttributes,
  type ChangeEventInsert,
  type NewEvent,
  type SerializedAttributes,
} from "./emit";
export { deleteFannedOutEventsBefore, eraseEventsNaming } from "./erase-events";
export { anyEventToFanOut, claimEventsToFanOut, type OutboxEvent } from "./fan-out-claim";
export { useEventTakers, type EventTakers } from "./event-takers";
export { eventsSince, type OutboxEventRow } from "./events-since";
