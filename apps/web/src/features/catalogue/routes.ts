import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

// One loader a page, shared by its routes: each `import()` carries its chunk's preload list into the first load.
const productsPage = () => import('./products-page');
const productForm = () => import('./product-form-page');
const collectionsPage = () => import('./collections-page');
const collectionForm = () => import('./collection-form-page');
const brandsPage = () => import('./brands-page');
const brandForm = () => import('./brand-form-page');

/** The catalogue's back-office screens (docs/design.md §6). */
export const catalogueRoutes = defineRoutes([
  {
    id: 'dashboard.products',
    pattern: paths.dashboard.products,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'products:read' },
    title: 'Productos',
    icon: 'Croissant',
    lazy: productsPage,
  },
  {
    id: 'dashboard.productCreate',
    pattern: paths.dashboard.productCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'products:create' },
    title: 'Nuevo producto',
    lazy: productForm,
  },
  {
    id: 'dashboard.productUpdate',
    pattern: paths.dashboard.productUpdate.pattern,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'products:update' },
    title: 'Editar producto',
    lazy: productForm,
  },
  {
    id: 'dashboard.productCollections',
    pattern: paths.dashboard.productCollections,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'productCollections:read' },
    title: 'Colecciones',
    icon: 'FolderTree',
    lazy: collectionsPage,
  },
  {
    id: 'dashboard.productCollectionCreate',
    pattern: paths.dashboard.productCollectionCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'productCollections:create' },
    title: 'Nueva colección',
    lazy: collectionForm,
  },
  {
    id: 'dashboard.productCollectionUpdate',
    pattern: paths.dashboard.productCollectionUpdate.pattern,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'productCollections:update' },
    title: 'Editar colección',
    lazy: collectionForm,
  },
  {
    id: 'dashboard.brands',
    pattern: paths.dashboard.brands,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'brands:read' },
    title: 'Marcas',
    icon: 'Tags',
    lazy: brandsPage,
  },
  {
    id: 'dashboard.brandCreate',
    pattern: paths.dashboard.brandCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'brands:create' },
    title: 'Nueva marca',
    lazy: brandForm,
  },
  {
    id: 'dashboard.brandUpdate',
    pattern: paths.dashboard.brandUpdate.pattern,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'brands:update' },
    title: 'Editar marca',
    lazy: brandForm,
  },
]);
