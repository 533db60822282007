"use client";

import { useSyncExternalStore, type ReactNode } from "react";
import { Icon, cn, focusRing, type IconProps } from "@/components/ui";
import { THEME_STORAGE_KEY, nextTheme, readTheme, themeLabel, type Theme } from "./theme";

const icons: Record<Theme, (p: IconProps) => ReactNode> = {
  system: (p) => (
    <Icon {...p}>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </Icon>
  ),
  light: (p) => (
    <Icon {...p}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </Icon>
  ),
  dark: (p) => (
    <Icon {...p}>
      <path d="M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5Z" />
    </Icon>
  ),
};

/** Who draws the theme: the toggles of this page, told when one applies a theme. */
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The choice made on this page, which holds where storage is refused. */
let chosen: Theme | null = null;

function storedTheme(): Theme {
  if (chosen) return chosen;
  try {
    return readTheme(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    // No storage: the system theme it is.
    return "system";
  }
}

function apply(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  if (theme !== "system") root.classList.add(theme);
  try {
    if (theme === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  chosen = theme;
  for (const listener of listeners) listener();
}

/** System, light, dark in turn; the label says the current theme and what a click does. */
export function ThemeToggle() {
  // The server renders "system"; the browser reads the stored choice once hydrated.
  const theme = useSyncExternalStore(subscribe, storedTheme, () => "system" as const);
  const next = nextTheme(theme);
  const ThemeIcon = icons[theme];
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      data-theme={theme}
      aria-label={`Theme: ${themeLabel[theme]}. Switch to ${themeLabel[next]}`}
      title={`Theme: ${themeLabel[theme]} (click for ${themeLabel[next]})`}
      onClick={() => {
        apply(next);
      }}
      className={cn(
        "flex size-7 shrink-0 items-center justify-center rounded-md text-muted hover:bg-surface-muted hover:text-foreground",
        focusRing,
      )}
    >
      <ThemeIcon className="size-4" />
    </button>
  );
}
