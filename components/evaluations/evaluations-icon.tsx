import { Icon, type IconProps } from "@/components/ui";

/** A bar chart: runs and their scores. */
export const EvaluationsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 20h16" />
    <path d="M7 16v-5M12 16V7M17 16v-8" />
  </Icon>
);
