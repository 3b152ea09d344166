import type { ReactNode } from 'react';

/** The built files a page names: the client entry and the CSS of the first load. */
export interface DocumentAssets {
  scripts: string[];
  styles: string[];
}

/** The id of the JSON block that carries the server's loader data to the client (no inline script: CSP). */
export const HYDRATION_ELEMENT_ID = '__hornada';

/**
 * The whole document (docs/design.md §1): React renders `<html>`, so each page's `<title>`, description and Open
 * Graph tags, rendered where the page is, are hoisted into `<head>` on the server and on the client alike.
 * The scripts (the hydration data and the entry) are added by the server after rendering (`bodyScripts`):
 * React never renders a script, and skips them when it hydrates the body.
 */
export function Document({ assets, children }: { assets: DocumentAssets; children: ReactNode }) {
  return (
    <html lang="es-CO">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#7a4a1e" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
      </head>
      <body>{children}</body>
    </html>
  );
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The hydration data block and the entry's module scripts, as HTML to place before `</body>`. */
export function bodyScripts(assets: DocumentAssets, data: unknown): string {
  return (
    `<script id="${HYDRATION_ELEMENT_ID}" type="application/json">${jsonForScript(data)}</script>` +
    assets.scripts.map((src) => `<script type="module" src="${escapeAttribute(src)}"></script>`).join('')
  );
}

/** JSON that is safe inside a `<script type="application/json">`: nothing can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
