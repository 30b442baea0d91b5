// The screen sizes the journeys run at: collectors work on phones (CONTRIBUTING.md), managers on desktops.

/** Context options per screen size; phones get touch and the mobile meta-viewport handling. */
export const VIEWPORTS = {
  /** A current mid-range phone (iPhone 12-15 class). */
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  /** A small, older Android phone: the narrowest width we support. */
  smallPhone: { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true },
  /** The default of the suite (playwright.config.ts). */
  desktop: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

export const PHONES: ViewportName[] = ['phone', 'smallPhone'];
export const ALL_VIEWPORTS: ViewportName[] = ['phone', 'smallPhone', 'desktop'];
