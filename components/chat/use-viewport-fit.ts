"use client";

import { useLayoutEffect, type RefObject } from "react";

/**
 * Keeps an element as tall as the viewport below its top edge (less `bottomGap` px), never under
 * `minHeight`: a chat whose composer sits at its bottom is then fully on screen at any window
 * size, under headers of any height, and a sticky pane refits as the page scrolls.
 */
export function useViewportFit(
  ref: RefObject<HTMLElement | null>,
  { bottomGap = 0, minHeight = 0 }: { bottomGap?: number; minHeight?: number } = {},
) {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const fit = () => {
      const top = Math.max(element.getBoundingClientRect().top, 0);
      element.style.height = `${Math.max(window.innerHeight - top - bottomGap, minHeight)}px`;
    };
    fit();
    // Content above it that loads later (a header replacing its skeleton) moves its top edge.
    const above = new ResizeObserver(fit);
    above.observe(document.body);
    window.addEventListener("resize", fit);
    window.addEventListener("scroll", fit, { passive: true });
    return () => {
      above.disconnect();
      window.removeEventListener("resize", fit);
      window.removeEventListener("scroll", fit);
    };
  }, [ref, bottomGap, minHeight]);
}
