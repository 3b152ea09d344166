import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Role names are the permission table's (packages/domain): code elsewhere asks it (`can(role, capability)`,
 * `grantOf`) or names a role through `ROLE`, never by its string, so "may role X do Y" is decided in one place.
 */
const ROLE_NAMES = [
  'system_admin',
  'company_admin',
  'company_staff',
  'company_customer',
  'delivery_assistant',
  'production_assistant',
];
const noRoleStrings = {
  'no-restricted-syntax': [
    'error',
    {
      selector: `Literal[value=/^(${ROLE_NAMES.join('|')})$/]`,
      message:
        'Role names live in packages/domain: decide with a capability (can(role, capability)) or the permission table, and name a role with ROLE.',
    },
    {
      selector: `TemplateElement[value.raw=/^(${ROLE_NAMES.join('|')})$/]`,
      message: 'Role names live in packages/domain: name a role with ROLE.',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'apps/server/src/db/migrations/**',
      '**/dist-server/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: [
      'packages/domain/**',
      'eslint.config.js',
      // Tests, end-to-end specs and benchmarks send role names as the API's data (registration bodies, tokens).
      '**/*.test.{ts,tsx}',
      'apps/server/test/**',
      'e2e/**',
      'bench/**',
      // TEMPORARY, until the areas, landings and guard move into packages/domain (issue 23): remove on merge.
      'apps/web/src/app/guard.ts',
      'apps/web/src/app/landing.ts',
      'apps/web/src/app/session.ts',
    ],
    rules: noRoleStrings,
  },
);
