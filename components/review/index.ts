export { ReviewIcon } from "./review-icon";
export { ReviewQueues } from "./review-queues";
export { ReviewSession } from "./review-session";
