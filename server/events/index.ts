export { EVENTS_CHANNEL } from "./notify";
export { capped, drainEvents, emitEvent, serializedAttributes, type SerializedAttributes } from "./emit";
export { deleteFannedOutEventsBefore, eraseEventsNaming } from "./erase-events";
