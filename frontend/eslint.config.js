// The front end's lint: typescript-eslint, the React hooks rules as errors, jsx-a11y's recommended set.
// `npm run lint` only reports; it never rewrites a file.
import { dirname, relative, resolve, sep } from 'node:path'
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import i18next from 'eslint-plugin-i18next'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const SRC = resolve(import.meta.dirname, 'src')

/**
 * The front end's boundaries: a feature reaches another feature only through its index (features/<other> or
 * features/<other>/index), and the routing engine (app/routing) imports no feature at all: the features declare their
 * routes with it, and app/routes.ts puts them together.
 */
const boundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      routing: "app/routing is the features' engine and imports no feature ({{source}}).",
      internals: "{{source}} is another feature's internals: import it through that feature's index.",
    },
  },
  create(context) {
    const from = relative(SRC, context.filename).split(sep)
    const check = (node) => {
      const source = node?.type === 'Literal' ? node.value : undefined
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const to = relative(SRC, resolve(dirname(context.filename), source)).split(sep)
      if (to[0] !== 'features') return
      if (from[0] === 'app' && from[1] === 'routing') {
        context.report({ node, messageId: 'routing', data: { source } })
      } else if (from[0] === 'features' && to[1] !== from[1]) {
        const viaIndex = to.length === 2 || (to.length === 3 && to[2] === 'index')
        if (!viaIndex) {
          context.report({ node, messageId: 'internals', data: { source } })
        }
      }
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    }
  },
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/gql', 'coverage'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused values are already errors in TypeScript (noUnusedLocals / noUnusedParameters); `_` names are intended.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, paysite: { rules: { boundaries } } },
    rules: {
      'paysite/boundaries': 'error',
      ...Object.fromEntries(Object.keys(reactHooks.configs.recommended.rules).map((rule) => [rule, 'error'])),
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // Every user-facing string in JSX goes through i18n (src/app/i18n; docs/decisions/): text
    // children, literals rendered as children, and the props that carry words. Literals without a letter
    // (punctuation, symbols, digits: "·", "▲", "/", "×") and paths ("/videos") are allowed; tests are not checked.
    files: ['src/**/*.tsx'],
    ignores: ['**/*.test.tsx', 'src/testing/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'should-validate-template': true,
          words: { exclude: ['[^A-Za-z]*', '/\\S*'] },
          // Props that never reach the screen as words: markup, routing, tracking and test hooks.
          'jsx-attributes': {
            exclude: [
              'className', 'style', 'type', 'key', 'id', 'width', 'height', 'href', 'to', 'rel', 'target', 'role',
              'name', 'value', 'htmlFor', 'src', 'srcSet', 'sizes', 'loading', 'decoding', 'autoComplete',
              'inputMode', 'method', 'action', 'data-.*', 'aria-(?!label$|description$|valuetext$|roledescription$|placeholder$).*',
              'elm', 'campaign', 'campaignCode', 'testId', 'moreHref', 'variant', 'behaviour',
            ],
          },
          // Object keys whose values are codes, not copy (a flash's type, a query's policy).
          'object-properties': { exclude: ['[A-Z_-]+', 'type', 'name', 'kind', 'fetchPolicy', 'errorPolicy', 'autoComplete', 'reason', 'elm'] },
          // Calls whose string arguments are keys or identifiers, not copy.
          callees: {
            exclude: ['t', 'translate', 'translateRich', 'Error', 'can', 'cannot', 'open', 'require', 'includes', 'startsWith', 'endsWith',
              'toLocaleDateString', 'toLocaleTimeString', 'toLocaleString'],
          },
        },
      ],
    },
  },
)
