export { ModelPricesSection } from "./model-prices-section";
