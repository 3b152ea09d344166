import type { ResourceName } from '@hornada/domain/policy';
import { resourceService } from '../../components/data-table/resource-client';

export interface Option {
  value: string;
  label: string;
}

/**
 * A resource's records as select options (by name); the catalogue's lists are short (at most 1,000). A failed
 * read gives none: the select then offers only "none", the form still works and the server checks the reference.
 */
export function readOptions(resource: ResourceName, companyId: string): Promise<Option[]> {
  return resourceService<{ id: string; name: string }>(resource, companyId)
    .list({ pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', direction: 'asc' } })
    .then(
      (result) => result.items.map((r) => ({ value: r.id, label: r.name })),
      () => [],
    );
}

/** The name of an option's id, for a table's cell. */
export function optionLabel(options: readonly Option[], id: string | null | undefined): string {
  if (!id) return '';
  return options.find((o) => o.value === id)?.label ?? '';
}

/** After a save: the stored files the record used before and no longer does are deleted (best effort). */
export const ACTIVE_FILTER = {
  key: 'active',
  label: 'Estado',
  options: [
    { value: 'true', label: 'Activos' },
    { value: 'false', label: 'Inactivos' },
  ],
} as const;
