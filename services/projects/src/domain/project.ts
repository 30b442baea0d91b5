// Project rules of spec 000 §3, §5 and §9 that the first projects calls need.

export const PROJECT_STATES = ['P', 'O', 'G', 'F', 'D'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];
export const PROJECT_TYPES = ['S', 'T', 'L'] as const;
export const PLACE_ICONS = ['place', 'local_pizza', 'person_pin', 'person_pin_circle'] as const;
export const DEFAULT_COLOR = '5da83d';
export const DEFAULT_ICON = 'place';

export interface Geotag {
  latitude: number;
  longitude: number;
}

/** A geotag is valid when both coordinates are finite and in range. */
export function isValidGeotag(g: Geotag | undefined): g is Geotag {
  return (
    g !== undefined &&
    Number.isFinite(g.latitude) &&
    Number.isFinite(g.longitude) &&
    Math.abs(g.latitude) <= 90 &&
    Math.abs(g.longitude) <= 180
  );
}

/** A colour is six hexadecimal digits without '#'. */
export function normalizeColor(color: string): string | undefined {
  const c = color.trim().replace(/^#/, '').toLowerCase();
  if (c === '') return DEFAULT_COLOR;
  return /^[0-9a-f]{6}$/.test(c) ? c : undefined;
}
