export { AliasesSection } from "./aliases-section";
export { AllowlistsSection } from "./allowlists-section";
export { BudgetsSection } from "./budgets-section";
export { RateLimitsSection } from "./rate-limits-section";
