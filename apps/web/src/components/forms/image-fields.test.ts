import { describe, expect, it } from 'vitest';
import { thumbUrl } from './image-fields';

describe('thumbUrl', () => {
  it('uses the smallest stored width, else the image itself', () => {
    expect(thumbUrl({ path: 'c1/products/ab.webp', widths: [960, 320, 640] })).toBe('/files/c1/products/ab-320.webp');
    expect(thumbUrl({ path: 'c1/brands/logo.webp' })).toBe('/files/c1/brands/logo.webp');
    expect(thumbUrl({ path: 'c1/brands/logo.webp', widths: [] })).toBe('/files/c1/brands/logo.webp');
  });
});
