import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/',
      'docs/api/',
      'coverage/',
      '.runtimes/',
      '.tmp/',
      'reports/',
      '.stryker-tmp/',
      '**/node_modules/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-level tests are functions that are type-checked and never called.
    files: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `interface UserListParams extends PageParams {}` names a shared shape so docs show it by name.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
      // `== null` reads as "absent": per-call options take null and undefined alike.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A `let` assigned once after a closure that reads it cannot be `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-console': 'off',
    },
  },
);
