export { EVENTS_CHANNEL } from "./notify";
export { capped, drainEvents, emitEvent, serializedAttributes, type SerializedAttributes } from "./emit";
export { deleteFannedOutEventsBefore, eraseEventsNaming } from "./erase-events";
export { anyEventToFanOut, claimEventsToFanOut, type OutboxEvent } from "./fan-out-claim";
export { useEventTakers, type EventTakers } from "./event-takers";
export { eventsSince, type OutboxEventRow } from "./events-since";
