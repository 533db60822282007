export { EVENTS_CHANNEL } from "./notify";
export { capped, emitEvent, serializedAttributes, type SerializedAttributes } from "./emit";
