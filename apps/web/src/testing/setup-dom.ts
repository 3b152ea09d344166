import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

/**
 * Component tests (`*.dom.test.tsx`, jsdom): each test starts on an empty document. Testing Library unmounts
 * by itself only when the runner's globals are on; this project keeps them off.
 */
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
