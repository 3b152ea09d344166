import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

/**
 * Component tests (`*.dom.test.tsx`, jsdom): each test starts on an empty document. Testing Library unmounts
 * by itself only when the runner's globals are on; this project keeps them off.
 */
/**
 * jsdom has no media queries: `(max-width: Npx)` and `(min-width: Npx)` answered against `window.innerWidth`
 * (1024 by default; a test of the phone layout sets it first).
 */
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    const min = /min-width:\s*(\d+)px/.exec(query);
    const matches =
      (max === null || window.innerWidth <= Number(max[1])) && (min === null || window.innerWidth >= Number(min[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    };
  };
}

/** jsdom's `<dialog>` has no showModal or close: opened and closed as the browser does (the `open` attribute). */
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
