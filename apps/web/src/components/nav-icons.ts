import {
  BarChart3,
  Building2,
  ClipboardList,
  CookingPot,
  Croissant,
  Factory,
  FolderTree,
  History,
  ListChecks,
  Mail,
  PackageSearch,
  Repeat,
  Route,
  Settings,
  Store,
  Tags,
  Truck,
  UserRound,
  Users,
  Wallet,
  Wheat,
  type LucideIcon,
} from 'lucide-react';

/**
 * The icons the areas' menus may show, by name. A route entry names its icon (a type-only import), so the
 * icons load with the area's layout, never with the storefront's first page.
 */
export const NAV_ICONS = {
  BarChart3,
  Building2,
  ClipboardList,
  CookingPot,
  Croissant,
  Factory,
  FolderTree,
  History,
  ListChecks,
  Mail,
  PackageSearch,
  Repeat,
  Route,
  Settings,
  Store,
  Tags,
  Truck,
  UserRound,
  Users,
  Wallet,
  Wheat,
} as const satisfies Record<string, LucideIcon>;

export type NavIcon = keyof typeof NAV_ICONS;
