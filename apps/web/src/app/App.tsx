import { useCallback, useEffect, useState } from 'react';
import type { Product, ProductCollection } from '@hornada/domain/schemas/catalogue';
import { formatMoney } from '@hornada/domain/format';
import { ApiError, getJson } from '../lib/http';

interface Config {
  companyId: string | null;
  marketName: string;
}
interface List<T> {
  data: T[];
  total: number;
}

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; collections: ProductCollection[]; products: Product[] };

/** srcset from the widths the server rendered: products/x/main.webp → products/x/main-640.webp 640w. */
function srcSet(path: string, widths: number[]): string {
  return widths.map((w) => `/files/${path.replace(/\.webp$/, `-${w}.webp`)} ${w}w`).join(', ');
}

/** `eager`: above the fold on a phone (the first cards); `first`: the likely largest paint. */
function ProductCard({ product, eager, first }: { product: Product; eager: boolean; first: boolean }) {
  const image = product.images[0];
  return (
    <li className="card">
      {image ? (
        <img
          src={`/files/${image.path}`}
          srcSet={image.widths.length ? srcSet(image.path, image.widths) : undefined}
          sizes="(min-width: 1100px) 260px, (min-width: 700px) 33vw, 50vw"
          width={image.width}
          height={image.height}
          alt={image.alt || product.name}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={first ? 'high' : undefined}
          decoding="async"
        />
      ) : (
        <div className="card-placeholder" aria-hidden="true" />
      )}
      <div className="card-body">
        <h3>{product.name}</h3>
        {product.description ? <p className="card-description">{product.description}</p> : null}
        <p className="price">{formatMoney(product.price)}</p>
      </div>
    </li>
  );
}

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // Kept apart from the catalogue: once known, the market's name stays in the header through a failure.
  const [config, setConfig] = useState<Config | null>(null);

  const load = useCallback(async (signal?: AbortSignal) => {
    setState({ kind: 'loading' });
    try {
      const { data: config } = await getJson<{ data: Config }>('/api/config', signal);
      setConfig(config);
      if (!config.companyId) {
        setState({ kind: 'ready', collections: [], products: [] });
        return;
      }
      const base = `/api/companies/${encodeURIComponent(config.companyId)}`;
      const [collections, products] = await Promise.all([
        getJson<List<ProductCollection>>(`${base}/productCollections?per_page=100&sort=sortOrder`, signal),
        getJson<List<Product>>(`${base}/products?per_page=100&sort=sortOrder`, signal),
      ]);
      setState({ kind: 'ready', collections: collections.data, products: products.data });
    } catch (err) {
      if (signal?.aborted) return;
      setState({
        kind: 'error',
        message: err instanceof ApiError ? err.userMessage : 'No pudimos cargar los productos.',
      });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  useEffect(() => {
    if (config) document.title = config.marketName;
  }, [config]);

  const marketName = config?.marketName ?? 'Hornada';

  return (
    <>
      <header className="site-header">
        <div className="wrap">
          <span className="logo" aria-hidden="true">
            ◐
          </span>
          <h1>{marketName}</h1>
        </div>
      </header>
      <main className="wrap" aria-busy={state.kind === 'loading'}>
        {state.kind === 'loading' && (
          <p className="status" role="status">
            Cargando productos…
          </p>
        )}
        {state.kind === 'error' && (
          <div className="status error" role="alert">
            <p>{state.message}</p>
            <button type="button" onClick={() => void load()}>
              Reintentar
            </button>
          </div>
        )}
        {state.kind === 'ready' && <Catalogue collections={state.collections} products={state.products} />}
      </main>
      <footer className="site-footer">
        <div className="wrap">Hornada</div>
      </footer>
    </>
  );
}

function Catalogue({ collections, products }: { collections: ProductCollection[]; products: Product[] }) {
  if (products.length === 0) {
    return <p className="status">Esta panadería aún no tiene productos publicados.</p>;
  }
  const known = new Set(collections.map((c) => c.id));
  const sections = [
    ...collections.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      items: products.filter((p) => p.collectionId === c.id),
    })),
    {
      id: 'otros',
      name: 'Otros productos',
      description: null,
      items: products.filter((p) => !p.collectionId || !known.has(p.collectionId)),
    },
  ].filter((s) => s.items.length > 0);
  let shown = 0;
  return (
    <>
      {sections.map((s) => (
        <section key={s.id} aria-labelledby={`col-${s.id}`} className="collection">
          <h2 id={`col-${s.id}`}>{s.name}</h2>
          {s.description ? <p className="collection-description">{s.description}</p> : null}
          <ul className="grid">
            {s.items.map((p) => {
              const index = shown++;
              return <ProductCard key={p.id} product={p} eager={index < 4} first={index === 0} />;
            })}
          </ul>
        </section>
      ))}
    </>
  );
}
