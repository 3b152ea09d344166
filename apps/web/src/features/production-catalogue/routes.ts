import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

// One loader a page, shared by its routes: each `import()` carries its chunk's preload list into the first load.
const recipesPage = () => import('./recipes-list-page');
const recipeForm = () => import('./recipe-form-page');
const ingredientsPage = () => import('./ingredients-list-page');
const ingredientForm = () => import('./ingredient-form-page');

/** Recipes and ingredients (docs/design.md §6). */
export const productionCatalogueRoutes = defineRoutes([
  {
    id: 'dashboard.recipes',
    pattern: paths.dashboard.recipes,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'recipes:read' },
    title: 'Recetas',
    icon: 'CookingPot',
    lazy: recipesPage,
  },
  {
    id: 'dashboard.recipeCreate',
    pattern: paths.dashboard.recipeCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'recipes:create' },
    title: 'Nueva receta',
    lazy: recipeForm,
  },
  {
    id: 'dashboard.recipeUpdate',
    pattern: paths.dashboard.recipeUpdate.pattern,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'recipes:update' },
    title: 'Editar receta',
    lazy: recipeForm,
  },
  {
    id: 'dashboard.ingredients',
    pattern: paths.dashboard.ingredients,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'ingredients:read' },
    title: 'Ingredientes',
    icon: 'Wheat',
    lazy: ingredientsPage,
  },
  {
    id: 'dashboard.ingredientCreate',
    pattern: paths.dashboard.ingredientCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'ingredients:create' },
    title: 'Nuevo ingrediente',
    lazy: ingredientForm,
  },
  {
    id: 'dashboard.ingredientUpdate',
    pattern: paths.dashboard.ingredientUpdate.pattern,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'ingredients:update' },
    title: 'Editar ingrediente',
    lazy: ingredientForm,
  },
]);
