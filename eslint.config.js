import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Folder boundaries as import rules: the files of one folder may not import the folders named. Imports
 * are relative, so a folder is recognised by its name after any run of `../` (folder names are unique
 * at their level). The import graph these keep: README.md of each folder says what lives there.
 */
const outOf = (root, folders, message) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message: `${root}: ${message}`,
});
const top = ['app', 'server', 'seed'];
const server = (folder, forbidden, why, more = []) => ({
  files: [`apps/server/src/${folder}/**/*.ts`],
  rules: { 'no-restricted-imports': ['error', { patterns: [outOf(`${folder}/`, forbidden, why), ...more] }] },
});
/**
 * A module's files are its own: the rest of the server imports a module through its face, the folder itself
 * (its index.ts), never a file inside it. `prefix` is how the importing file reaches the modules' folder.
 */
const pastFace = (prefix) => ({
  regex: `^${prefix}[a-z-]+/`,
  message: 'modules/: import another module through its face (its folder: index.ts), never a file inside it',
});
/** A module's file `depth` folders inside it reaches a sibling module with `depth + 1` `../`. */
const moduleFiles = [0, 1, 2, 3].map((depth) => ({
  files: [`apps/server/src/modules/*/${'*/'.repeat(depth)}*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          outOf('modules/', top, 'modules do not import the app or the seed'),
          pastFace(`(\\.\\./){${depth + 1}}`),
        ],
      },
    ],
  },
}));
const serverBoundaries = [
  server(
    'lib',
    ['db', 'live', 'resources', 'modules', 'plugins', 'providers', 'context', 'request-context', 'config', ...top],
    'pure helpers import nothing of the app',
  ),
  server(
    'db',
    ['live', 'resources', 'modules', 'plugins', 'providers', 'context', 'request-context', ...top],
    'the database layer imports only lib/ and config',
  ),
  server(
    'providers',
    ['live', 'resources', 'modules', 'plugins', 'context', 'request-context', ...top],
    'drivers import only db/, lib/ and config',
  ),
  server('plugins', ['live', 'modules', ...top], 'cross-cutting plugins do not import the feed or modules'),
  server(
    'resources',
    ['live', 'modules', ...top],
    'the engine imports no part of the feed (live/) nor any module: they call it',
  ),
  server('live', ['modules', ...top], 'the feed imports no module'),
  server('modules', top, 'modules do not import the app or the seed', [pastFace('\\./')]),
  ...moduleFiles,
  server('seed', ['app', 'server'], 'the seed writes through services, not the app', [pastFace('(\\.\\./)+modules/')]),
  {
    // The app, the process and the context: modules through their faces too.
    files: ['apps/server/src/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [pastFace('\\./modules/')] }] },
  },
];

/**
 * The web app imports one way, components/lib/config → features → app, and features do not import each
 * other (style habit 4). A file `depth` folders inside a feature reaches a sibling feature with
 * `depth + 1` `../` followed by a name.
 */
const webBoundaries = [
  {
    files: ['apps/web/src/{components,lib,config}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            outOf('components/, lib/, config/', ['features', 'app'], 'shared code imports no feature nor the app'),
          ],
        },
      ],
    },
  },
  ...[0, 1, 2, 3].map((depth) => ({
    files: [`apps/web/src/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./){${depth + 1}}(?!\\.)`,
              message:
                'features/: a feature does not import another feature; move what both need to components/ or lib/',
            },
          ],
        },
      ],
    },
  })),
];

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
/**
 * Nor by `ROLE.x` outside the domain (the demo's accounts and orders apart): a decision is a capability
 * (`can(role, capability)`), a new account's role one of the domain's named roles (SHOPPER_ROLE, FOUNDER_ROLE).
 */
const noRoleNames = {
  'no-restricted-syntax': [
    ...noRoleStrings['no-restricted-syntax'],
    {
      selector: "MemberExpression[object.name='ROLE']",
      message:
        'Decide with a capability (can(role, capability), packages/domain capabilities.ts); name a new account’s role with SHOPPER_ROLE or FOUNDER_ROLE.',
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
    // Each worker has an app of its own (e2e/support/apps.ts): the config's baseURL is only the first one's.
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='baseURL'][object.property.name='use']",
          message: "The config's baseURL is the first worker's app: use the baseURL fixture or ownAppUrl().",
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: [
      'packages/domain/**',
      'eslint.config.js',
      // Tests (and their fixtures), end-to-end specs and benchmarks send role names as the API's data
      // (registration bodies, tokens).
      '**/*.test.{ts,tsx}',
      '**/*.fixture.ts',
      'apps/server/test/**',
      'e2e/**',
      'bench/**',
    ],
    rules: noRoleStrings,
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'scripts/**/*.{js,mjs,ts}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      '**/*.fixture.ts',
      'apps/server/test/**',
      'apps/server/src/seed/**',
      'apps/server/src/modules/identity/demo-accounts.ts',
    ],
    rules: noRoleNames,
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  ...serverBoundaries,
  ...webBoundaries,
);
