// What a person sees of a page, read in the page itself: how far it scrolls sideways, and the name
// of the control the keyboard is on. Functions given to page.evaluate run in the page: they cast
// globalThis (the tests compile without the DOM library).
import type { Page } from 'playwright-core';

interface PageGlobals {
  document: { documentElement: { scrollWidth: number }; activeElement: unknown };
  innerWidth: number;
}
interface Focused {
  labels?: { textContent: string }[];
  getAttribute(name: string): string | null;
  textContent: string;
}

/** How many pixels the page scrolls sideways: more than 0 is a layout a phone cannot read. */
export const sidewaysScroll = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as PageGlobals;
    return document.documentElement.scrollWidth - innerWidth;
  });

/** The focused control's label (its <label for>) or accessible name, as a person hears it. */
export const focusedName = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    const active = document.activeElement as Focused | null;
    if (!active) return '';
    return (active.labels?.[0]?.textContent ?? active.getAttribute('aria-label') ?? active.textContent ?? '').trim();
  });
