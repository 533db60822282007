/**
 * The colour theme a person chose in the user menu. "system" (nothing stored) follows the
 * operating system; "light" and "dark" put that class on <html>, which sets `color-scheme` and so
 * picks a side of every `light-dark()` colour token in globals.css.
 */
export type Theme = "system" | "light" | "dark";

export const THEME_STORAGE_KEY = "playground:theme";

export const THEMES: readonly Theme[] = ["system", "light", "dark"];

export const themeLabel: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

export function nextTheme(theme: Theme): Theme {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
}

export function readTheme(stored: string | null): Theme {
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** Runs before the first paint (inlined in the root layout), so a stored theme never flashes the other one. */
export const themeBootScript = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.classList.add(t)}catch(e){}`;
