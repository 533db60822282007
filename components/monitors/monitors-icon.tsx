import { Icon, type IconProps } from "@/components/ui";

/** A bell: a monitor that rings when a line crosses its threshold. */
export const MonitorsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15Z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);
