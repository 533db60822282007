import { Icon, type IconProps } from "@/components/ui";

/** A gauge: an evaluator gives a score. */
export const EvaluatorsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 17a8 8 0 1 1 16 0" />
    <path d="m12 17 4-5" />
    <circle cx="12" cy="17" r="1.2" />
  </Icon>
);
