import { useEffect } from 'react';
// Registers the sign-out check of a shared phone (moves not sent, the kept route) while the driver's screens are loaded.
import './driver-sign-out';

/**
 * The driver's installable app: its manifest in the page's head (React places the link there) and
 * its service worker (public/driver-sw.js, scope /driver/), which keeps the shell and today's route offline.
 * Browsers allow a service worker only on https or localhost; elsewhere the IndexedDB queue still works.
 */
export function DriverApp() {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    // The worker says when what this page loaded is kept: the document's `data-offline-ready` is then "true"
    // (a reload without signal opens), "false" when keeping failed.
    const onMessage = (event: MessageEvent<unknown>) => {
      const data = event.data as { type?: unknown; ok?: unknown } | null;
      if (data?.type === 'kept') document.documentElement.dataset.offlineReady = String(data.ok === true);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    navigator.serviceWorker.startMessages();
    navigator.serviceWorker
      .register('/driver-sw.js', { scope: '/driver/' })
      .then((reg) => {
        // The scripts and styles this page already loaded came before the worker: hand it their addresses so
        // the shell opens without signal from the first visit on; and the header's logo (a stored file).
        const assets = performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name))
          .filter((u) => u.origin === location.origin && /^\/(assets|files)\//.test(u.pathname))
          .map((u) => u.pathname);
        (reg.active ?? reg.waiting ?? reg.installing)?.postMessage({ type: 'keep', urls: assets });
      })
      .catch(() => undefined);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, []);
  return <link rel="manifest" href="/driver.webmanifest" />;
}
