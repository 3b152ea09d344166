import { useEffect, useRef, useState } from 'react';
import {
  useLoaderData,
  useLocation,
  useParams,
  useRouteLoaderData,
  type Params,
  type ShouldRevalidateFunction,
} from 'react-router';
import { partRouteId } from '../route-entry';
import type { ResourceName } from '@hornada/domain/policy';
import { getLiveStream } from './live-stream';
import type { LiveChange } from './live-rules';

/** A screen's loader: what its route runs, after the guard, for an address (and what the live stream runs again). */
export type ScreenLoader = (args: { request: Request; params: Params }) => Promise<unknown>;
/** What a screen's loader answers. */
export type LoadedBy<L extends ScreenLoader> = Awaited<ReturnType<L>>;

/**
 * A screen's `shouldRevalidate` when its loader reads nothing from the query (a list it filters and sorts itself,
 * the view kept in `?q=`): a change of view is not a new read, and a read begun before a live change and answered
 * after it would put the older state back on screen.
 */
export const samePathSameData: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;

const NONE: readonly string[] = [];

/**
 * `follows` for a screen that is read once (a form being filled in, what order entry works from) or follows the
 * stream its own way: it reads again only when asked (`reload`), and, for the latter, on the stream's reset.
 */
export const FOLLOWS_NOTHING: readonly ResourceName[] = [];

/**
 * A screen's `shouldRevalidate` when some query parameters are its own and not its loader's (a panel opened over
 * the list): a change of those alone is not a new read. Give the same names to `useScreenData`'s `ignore`.
 */
export const ignoringParams =
  (names: readonly string[]): ShouldRevalidateFunction =>
  ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
    currentUrl.pathname + withoutParams(currentUrl.search, names) ===
    nextUrl.pathname + withoutParams(nextUrl.search, names)
      ? false
      : defaultShouldRevalidate;

/** `search` without the parameters named (the same string when there are none). */
function withoutParams(search: string, names: readonly string[]): string {
  if (!names.length) return search;
  const query = new URLSearchParams(search);
  for (const name of names) query.delete(name);
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}

/** `search` with only the parameters named. */
function onlyParams(search: string, names: readonly string[]): string {
  const query = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of names) for (const value of query.getAll(name)) kept.append(name, value);
  const rest = kept.toString();
  return rest ? `?${rest}` : '';
}

/**
 * A part's `shouldRevalidate` when it reads these query parameters (a panel's `?order=`): a change of path or of
 * them is a new read; a change of anything else is not.
 */
export const readingParams =
  (names: readonly string[]): ShouldRevalidateFunction =>
  ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
    currentUrl.pathname + onlyParams(currentUrl.search, names) === nextUrl.pathname + onlyParams(nextUrl.search, names)
      ? false
      : defaultShouldRevalidate;

/**
 * Whether a batch of live changes concerns what a read shows at `at` (its address as the loader reads it): the
 * open order's panel reads again for a change to that order, not for every order of the bakery. Without one,
 * every change to what it follows does. A reset always reads again.
 */
export type RelevantChanges = (resource: string, changes: readonly LiveChange[], at: URL) => boolean;

/** Live changes gather this long before the screen's loader runs again (a bulk change is one read). */
export const LIVE_RELOAD_DELAY_MS = 300;

/**
 * A screen's data, the one way a screen reads (docs/web.md "Data"): what its route's `loader` read for this
 * address, read again by the same loader, for this screen alone, whenever one of the resources it `follows`
 * changes in `companyId` or the live stream resets (changes were missed), once for changes that
 * come together; `reload()` reads it again at once. What is on screen stays until the new answer comes (no
 * flicker, inputs kept); a navigation's answer replaces a live one still on its way. The loader is called
 * directly, not through the router: the other routes' loaders (the storefront's menu, the guards) are not
 * run again for it.
 */
export function useScreenData<L extends ScreenLoader>(
  loader: L,
  companyId: string | null,
  follows: readonly ResourceName[],
  /** Query parameters the loader does not read (a panel opened over the list): changing them keeps what is shown. */
  ignore: readonly string[] = NONE,
): { data: LoadedBy<L>; reload: () => void } {
  // A client loader's answer reaches the screen as it returned it (nothing is serialised in the browser).
  const loaded = useLoaderData() as LoadedBy<L>;
  const { pathname, search } = useLocation();
  return useFollowedRead(loaded, loader, pathname + withoutParams(search, ignore), companyId, follows);
}

/**
 * One of a screen's parts (route-entry.ts `parts`): its loader's answer, read when its own part of the address
 * changes (its `shouldRevalidate`), and again, as `useScreenData` does, when what it `follows` changes (and
 * concerns it, when `relevant` says which changes do). `screenId` is the screen's route id.
 */
export function usePartData<L extends ScreenLoader>(
  screenId: string,
  part: string,
  loader: L,
  companyId: string | null,
  follows: readonly ResourceName[],
  {
    reads = NONE,
    relevant,
  }: {
    /** The query parameters the part's loader reads (none: the path alone). */
    reads?: readonly string[];
    /** Which live changes concern it (all of what it follows when not given). */
    relevant?: RelevantChanges;
  } = {},
): { data: LoadedBy<L>; reload: () => void } {
  const loaded = useRouteLoaderData(partRouteId(screenId, part)) as LoadedBy<L>;
  const { pathname, search } = useLocation();
  return useFollowedRead(loaded, loader, pathname + onlyParams(search, reads), companyId, follows, relevant);
}

/**
 * `loaded` (the router's answer for `href`), or a read the live stream asked for since at the same `href`: the
 * newer of the two.
 */
function useFollowedRead<L extends ScreenLoader>(
  loaded: LoadedBy<L>,
  loader: L,
  href: string,
  companyId: string | null,
  follows: readonly ResourceName[],
  relevant?: RelevantChanges,
): { data: LoadedBy<L>; reload: () => void } {
  type T = LoadedBy<L>;
  const params = useParams();
  const key = follows.join(',');

  // The newest of the two: the loader's for this address, or a live read made since at the same address.
  const [shown, setShown] = useState<{ data: T; href: string }>({ data: loaded, href });
  const [from, setFrom] = useState(loaded);
  if (from !== loaded) {
    // The render-time reset React recommends over an effect: no frame shows the old address's data.
    setFrom(loaded);
    setShown({ data: loaded, href });
  }

  // What a read needs, as of the latest render: a read started for one address never lands on another.
  const latest = useRef({ loader, href, params, relevant });
  useEffect(() => {
    latest.current = { loader, href, params, relevant };
  });
  const running = useRef<AbortController | null>(null);
  const reload = useRef(() => {
    const { loader: read, href: at, params: with_ } = latest.current;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const request = new Request(new URL(at, window.location.origin), { signal: controller.signal });
    void read({ request, params: with_ }).then(
      (data) => {
        if (!controller.signal.aborted && latest.current.href === at) setShown({ data: data as T, href: at });
      },
      () => undefined,
    );
  }).current;
  useEffect(() => () => running.current?.abort(), []);

  useEffect(() => {
    if (!companyId || !key) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(reload, LIVE_RELOAD_DELAY_MS);
    };
    const changed = (resource: string) => (changes: LiveChange[]) => {
      const { relevant: concerns, href: at } = latest.current;
      if (!concerns || concerns(resource, changes, new URL(at, window.location.origin))) later();
    };
    const stream = getLiveStream();
    const offs = key
      .split(',')
      .map((resource) => stream.subscribe(companyId, resource, { onChanges: changed(resource), onReset: later }));
    return () => {
      if (timer) clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [companyId, key, reload]);

  return { data: shown.href === href ? shown.data : loaded, reload };
}
