import { Icon, type IconProps } from "@/components/ui";

/** A rising line through a loop: failures turned into a better revision. */
export const ImproveIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 17l5-5 3.5 3.5L20 8" />
    <path d="M15 8h5v5" />
    <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3" />
  </Icon>
);
