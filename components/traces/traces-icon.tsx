import { Icon, type IconProps } from "@/components/ui";

/** Bars on a time axis: a waterfall. */
export const TracesIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 6h8M8 12h9M12 18h8" />
  </Icon>
);
