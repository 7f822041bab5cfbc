// Lint rules for the whole repository: typescript-eslint's recommended type-aware set, plus the few rules that
// keep our conventions (no floating promises on the hot path, `import type` for types, no console in libraries),
// and docs/architecture.md §2's dependency rule between the parts of src/ (scripts/dependency-rule.mjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { dependencyRuleConfigs } from './scripts/dependency-rule.mjs';

export default tseslint.config(
  { ignores: ['node_modules/**', 'crds/**', 'charts/**', 'coverage/**', '.cache/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      // Implementing an async interface synchronously (the embedded store) is legitimate.
      '@typescript-eslint/require-await': 'off',
      'no-console': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  ...dependencyRuleConfigs(),
  {
    // Command-line entry points and scripts talk to a terminal.
    files: ['scripts/**', 'bin/**', 'src/cli.ts', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', 'bin/gw'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, program: null, project: false },
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
);
