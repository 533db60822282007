import { AgentIcon } from "@/components/agents/icons";
import { EnvironmentsIcon } from "@/components/environments/environments-icon";
import { HomeIcon, KeyIcon, SettingsIcon } from "@/components/ui";

export interface NavItem {
  href: string;
  label: string;
  icon: typeof HomeIcon;
}

/**
 * Only pages that exist are listed. Agents, Environments, Traces and Webhooks join here, in that
 * order above Settings, as their pages are built.
 */
export const navItems: NavItem[] = [
  { href: "/", label: "Overview", icon: HomeIcon },
  { href: "/agents", label: "Agents", icon: AgentIcon },
  { href: "/environments", label: "Environments", icon: EnvironmentsIcon },
  { href: "/connections", label: "Connections", icon: KeyIcon },
  { href: "/settings", label: "Settings", icon: SettingsIcon },
];
