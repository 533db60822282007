/**
 * One page at a time may hold navigation back (the editor, while it has uncommitted changes).
 * Links are intercepted by the guard itself; code that navigates (the variant switcher) asks here.
 * The guard returns true when it took over: it will call `proceed` once the person agrees.
 */
export type NavigationGuard = (proceed: () => void) => boolean;

let current: NavigationGuard | null = null;

export function setNavigationGuard(guard: NavigationGuard | null): void {
  current = guard;
}

export function guardNavigation(proceed: () => void): void {
  if (current?.(proceed)) return;
  proceed();
}
