import { Icon, type IconProps } from "@/components/ui";

/** A clock with a run arrow: an agent started at set times. */
export const AutomationsIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);
