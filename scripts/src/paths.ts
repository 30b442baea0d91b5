// Where things are in the repository.
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** The repository root (scripts/dist/.. or scripts/src/..). */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const repoPath = (...parts: string[]) => resolve(ROOT, ...parts);
