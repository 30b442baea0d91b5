// Layout checks for small screens: no sideways scrolling, and touch targets a finger can hit.
import { expect, type Page } from '@playwright/test';

/** What a user can tap or type into, for expectTouchTargets. */
export const INTERACTIVE =
  'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="link"], [role="tab"]';

/**
 * Fails when the page scrolls sideways (the scrolling element is wider than the viewport), naming the element that
 * reaches furthest right, outermost first, so the failure points at the culprit. Retries for up to `timeout` ms
 * while the layout settles.
 */
export async function expectNoHorizontalScroll(page: Page, { timeout = 5_000 } = {}): Promise<void> {
  await expect(async () => {
    const m = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      const width = root.clientWidth;
      let widest: { element: string; right: number } | undefined;
      if (root.scrollWidth > width) {
        for (const el of Array.from(document.body.querySelectorAll('*'))) {
          const right = el.getBoundingClientRect().right + window.scrollX;
          if (right > width && (!widest || right > widest.right)) {
            const id = el.id ? `#${el.id}` : '';
            const testId = el.getAttribute('data-testid') ? `[data-testid="${el.getAttribute('data-testid')}"]` : '';
            const classes =
              typeof el.className === 'string' && el.className.trim()
                ? `.${el.className.trim().split(/\s+/).join('.')}`
                : '';
            widest = { element: `${el.tagName.toLowerCase()}${id}${testId}${classes}`, right: Math.round(right) };
          }
        }
      }
      return { scrollWidth: root.scrollWidth, clientWidth: width, widest };
    });
    const culprit = m.widest
      ? `; widest offending element: ${m.widest.element} (right edge at ${m.widest.right} px)`
      : '';
    expect(
      m.scrollWidth,
      `the page scrolls sideways: ${m.scrollWidth} px of content in ${m.clientWidth} px${culprit}`,
    ).toBeLessThanOrEqual(m.clientWidth);
  }).toPass({ timeout });
}

/**
 * Fails when a visible element matching `selector` is less than `minPx` high (44 px: Apple's and WCAG 2.5.5's
 * target size), listing every one that is. A checkbox or radio inside a <label> is measured by its label, which is
 * what the finger hits.
 */
export async function expectTouchTargets(page: Page, selector: string = INTERACTIVE, minPx = 44): Promise<void> {
  const small = await page.locator(selector).evaluateAll((els, min) => {
    const out: string[] = [];
    for (const el of els) {
      const target =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? (el.closest('label') ?? el)
          : el;
      const box = target.getBoundingClientRect();
      const style = getComputedStyle(target);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      if (box.height < min) {
        const name = (
          target.getAttribute('aria-label') ??
          target.getAttribute('name') ??
          target.getAttribute('data-testid') ??
          target.textContent ??
          ''
        )
          .trim()
          .slice(0, 40);
        out.push(`${target.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return out;
  }, minPx);
  expect(small, `touch targets under ${minPx} px high`).toEqual([]);
}
