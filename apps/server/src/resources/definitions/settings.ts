import { Settings, SettingsInput, toPatchSchema } from '@hornada/domain';

/**
 * Settings, one document a company (docs/design.md §4): a singleton resource. Who reads which fields and who
 * writes is the permission table's `settings` entry; SettingsService serves it.
 */
export const settingsResource = {
  name: 'settings',
  label: 'Settings',
  input: SettingsInput,
  patch: toPatchSchema(SettingsInput),
  record: Settings,
} as const;
