// The web UI's navigation as a person uses it: at a phone's width the entries sit behind the menu
// button, which is opened first; on a desktop they are always there.
import type { Page } from 'playwright-core';

/** Clicks the navigation entry named `name` (a string is matched exactly, a RegExp as it is). */
export async function openSection(page: Page, name: string | RegExp): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const menu = nav.getByRole('button', { name: /^Menu/ });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await nav.getByRole('link', typeof name === 'string' ? { name, exact: true } : { name }).click();
}
