import { fileURLToPath } from 'node:url';

/**
 * The package's `templates/` folder. This module sits at `src/registry/` when run from
 * source and at `dist/registry/` when built; both are two levels below the package root.
 */
export function templatesFolder(): string {
  return fileURLToPath(new URL('../../templates/', import.meta.url));
}
