import { Icon, type IconProps } from "@/components/ui/icons";

/** Three stacked layers: development, staging, production. */
export function EnvironmentsIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="m12 3 9 4.5-9 4.5-9-4.5L12 3Z" />
      <path d="m3 12 9 4.5 9-4.5" />
      <path d="m3 16.5 9 4.5 9-4.5" />
    </Icon>
  );
}
