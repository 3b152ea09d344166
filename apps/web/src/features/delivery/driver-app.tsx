import { useEffect } from 'react';

/**
 * The driver's installable app (issue 27): its manifest in the page's head (React places the link there) and
 * its service worker (public/driver-sw.js, scope /driver/), which keeps the shell and today's route offline.
 * Browsers allow a service worker only on https or localhost; elsewhere the IndexedDB queue still works.
 */
export function DriverApp() {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register('/driver-sw.js', { scope: '/driver/' }).catch(() => undefined);
  }, []);
  return <link rel="manifest" href="/driver.webmanifest" />;
}
