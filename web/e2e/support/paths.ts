// Where the suite reads and writes in the repository: the built web app, and artifacts/ (git-ignored).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is web/e2e/support/paths.ts). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A path under artifacts/, which CI keeps and git ignores. */
export const artifactsPath = (...parts: string[]) => resolve(ROOT, 'artifacts', ...parts);

/** Debian's Chromium: the suite never downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
