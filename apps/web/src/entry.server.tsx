import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, createStaticHandler, createStaticRouter, isRouteErrorResponse } from 'react-router';
import { Document, bodyScripts, type DocumentAssets } from './app/document';
import { clientOnlyChildren } from './app/client-only-table';
import { createRoutes, isNotFound } from './app/routes';
import type { StorefrontApi } from './lib/api/storefront-api';

export type { DocumentAssets } from './app/document';
export type { StorefrontApi, PublicConfig, PublicSettings } from './lib/api/storefront-api';

/** What the server hands the renderer for one request. */
export interface RenderContext {
  storefront: StorefrontApi;
  assets: DocumentAssets;
}

export type RenderResult = { status: number; html: string } | { status: number; redirect: string };

/** The hydration payload: loader data and errors by route id (what StaticRouterProvider would inline). */
export interface HydrationPayload {
  loaderData: Record<string, unknown>;
  actionData: Record<string, unknown> | null;
  errors: Record<string, unknown> | null;
}

const handler = createStaticHandler(createRoutes(clientOnlyChildren(null)));

function serializeErrors(errors: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [id, error] of Object.entries(errors)) {
    out[id] = isRouteErrorResponse(error)
      ? { __type: 'RouteErrorResponse', status: error.status, statusText: error.statusText, data: error.data }
      : // Never send a server error's message or stack to the browser.
        { __type: 'Error', message: 'Error' };
  }
  return out;
}

/**
 * Renders one storefront URL to a whole document (docs/design.md §1): loaders call the services in `storefront`
 * directly; the client resumes from the JSON block with the same loader data.
 */
export async function render(request: Request, ctx: RenderContext): Promise<RenderResult> {
  const context = await handler.query(request, { requestContext: { storefront: ctx.storefront } });
  if (context instanceof Response) {
    return { status: context.status, redirect: context.headers.get('location') ?? '/' };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const payload: HydrationPayload = {
    loaderData: context.loaderData,
    actionData: context.actionData,
    errors: serializeErrors(context.errors),
  };
  const html = renderToString(
    <Document assets={ctx.assets}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </Document>,
  );
  const leaf = context.matches.at(-1)?.route.id;
  const status = isNotFound(leaf) ? 404 : context.statusCode;
  const scripts = bodyScripts(ctx.assets, { hydration: payload, assets: ctx.assets });
  const at = html.lastIndexOf('</body>');
  return { status, html: `<!DOCTYPE html>${html.slice(0, at)}${scripts}${html.slice(at)}` };
}
