import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
);
