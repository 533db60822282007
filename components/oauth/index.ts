export { ConsentView, type ConsentFacts } from "./consent-view";
