export { EVENTS_CHANNEL } from "./notify";
export { capped, emitEvent } from "./emit";
