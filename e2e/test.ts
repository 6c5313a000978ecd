/**
 * Every journey's `test`: Playwright's, with a guard that fails the journey on any Content
 * Security Policy violation the page reports, however it was caused.
 */
import { expect, test as base } from '@playwright/test';

export { expect };
export type { Locator, Page } from '@playwright/test';

/** `cspViolations` is the journey's list so far; a test that provokes one on purpose takes it out. */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      // Exposed functions and init scripts outlive reloads, so every document of the journey is watched.
      await page.exposeFunction('__loopscopeCspViolation', (text: string) => violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __loopscopeCspViolation: (text: string) => void }).__loopscopeCspViolation;
          void report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
        });
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use(violations);
      expect(violations, 'Content Security Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});
