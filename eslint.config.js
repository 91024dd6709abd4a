import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'ui-react/dist/**', 'artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-syntax': ['error', { selector: 'Decorator', message: 'No decorators (ARCHITECTURE.md): bind with inversify in cli/.' }],
    },
  },
  {
    // The core is the embeddable library: pure TypeScript importing only io-ts, fp-ts and itself.
    files: ['core/src/**/*.ts'],
    ignores: ['core/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^(?!\\.{1,2}/|io-ts(/|$)|fp-ts(/|$))',
          message: 'core/src may import only io-ts, fp-ts and itself (ARCHITECTURE.md).',
        }],
      }],
    },
  },
  // No adapter imports another adapter (ARCHITECTURE.md "Adapters"): each sees only the core's
  // ports; the composition roots in cli/ are the one place that sees them all.
  ...['adapters-sql', 'adapters-http', 'adapters-graph', 'ui-react'].map((pkg) => ({
    files: [`${pkg}/src/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '^@tessera/(adapters-[a-z]+|ui-react|cli|tests)(/|$)',
          message: `${pkg} may import only @tessera/core(/internal) of the repository's packages: an adapter never reaches into another (ARCHITECTURE.md "Adapters"); wire them together in cli/.`,
        }],
      }],
    },
  })),
  {
    // The web client has no import loops (issue 12 point 7): a loop hides which module owns what.
    // Dynamic imports count too; the resolver maps the sources' `.js` specifiers to .ts/.tsx files.
    files: ['ui-react/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
