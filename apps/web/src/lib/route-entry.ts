import type { ComponentType } from 'react';
import type { LoaderFunctionArgs, RouteObject, ShouldRevalidateFunction } from 'react-router';
import type { Area, ScreenPermission } from '@hornada/domain/areas';
import type { NavIcon } from '../components/nav-icons';

/**
 * What a feature says about each of its screens (style habit 14): the feature's routes.ts exports these,
 * app/route-table.ts composes them, and nothing about a screen is spelled in a second place (its URL comes
 * from config/paths.ts, where other features build links to it).
 *
 * A routes.ts is in the storefront's first load (the router needs every pattern at start): it imports no
 * screen and no icon, only `import()`s its screens and names its icon (the storefront's first-load budget).
 */
export type RouteArea = 'storefront' | 'auth' | Area;

/**
 * A client-only screen's module: what `import()` of a page file gives: its `Component`, the `loader` that reads
 * its data (run after the guard, and again when the address changes: lib/live/use-screen-data.ts), and
 * `shouldRevalidate` where only some changes of the address change what it reads.
 */
export type LazyScreen = () => Promise<ScreenModule>;

/** What a part of a screen reads (route-entry's `parts`): its loader, and when it reads again. */
export interface ScreenPart {
  loader: (args: LoaderFunctionArgs) => unknown;
  shouldRevalidate?: ShouldRevalidateFunction;
}

/** A screen's module, as its `import()` gives it. */
export interface ScreenModule {
  Component?: ComponentType | null;
  loader?: (args: LoaderFunctionArgs) => unknown;
  shouldRevalidate?: ShouldRevalidateFunction;
  /** The parts its route entry names, by name (`parts`). */
  parts?: Readonly<Record<string, ScreenPart>>;
}

export interface RouteEntry {
  /** Stable name, used by the router, the menus and the tests; unique (app/route-table.ts's `RouteId`). */
  id: string;
  /** React Router pattern (`:param` for one segment), from config/paths.ts. */
  pattern: string;
  area: RouteArea;
  /** Who may open it, in words that name no role (packages/domain/src/areas.ts). */
  permission: ScreenPermission;
  /** Its Spanish title: the page's `<title>` and heading, and its menu label. */
  title: string;
  /** What it says while its loader reads, when that takes a moment ("Cargando…" by default). */
  loading?: string;
  /** Shown in its area's menu with this icon (in the order app/route-table.ts composes the features). */
  icon?: NavIcon;
  /** A client-only screen, loaded when opened; without one (and without `page`) it is not built yet. */
  lazy?: LazyScreen;
  /**
   * Parts of a client-only screen read apart from its view, each when its own part of the address changes (what
   * stays around a list while its search changes; a panel opened over it): a route each, outermost first, whose
   * `loader` and `shouldRevalidate` the screen's module exports under its name (`parts`), read by the screen with
   * `usePartData` (lib/live/use-screen-data.ts). The first keeps the screen's path; the screen is the last one's
   * index child. Names, not `import()`s: the entries are in the storefront's first load.
   */
  parts?: readonly string[];
  /** A storefront page, rendered on the server: its loader, component and error boundary (or `lazyPage`). */
  page?: Partial<RouteObject>;
  /** Where it sends an allowed user at once: their landing page, or a path. */
  redirect?: 'landing' | string;
  /**
   * `platform`: its header speaks as Hornada, not as the host's shop (the pages of bakery owners);
   * without it the host's shop speaks.
   */
  voice?: 'platform';
}

/** The route id of a screen's part (`parts`): the screen's own id stays the screen's. */
export const partRouteId = (screenId: string, part: string): string => `${screenId}.${part}`;

/** Keeps each entry's literal id, so that the composed table's ids are a union a typo does not compile in. */
export const defineRoutes = <const T extends readonly RouteEntry[]>(routes: T): T => routes;
