// The front end's lint (issue 22): typescript-eslint, the React hooks rules as errors, jsx-a11y's recommended set.
// `npm run lint` only reports; it never rewrites a file.
import { dirname, relative, resolve, sep } from 'node:path'
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const SRC = resolve(import.meta.dirname, 'src')

// Imports that crossed into another feature's internals before the boundary rule came (issue 22); each is to move
// behind that feature's index. No new one may be added here.
const KNOWN_CROSSINGS = [
  'features/deals/routes/UpsellScreens.tsx -> ../../signup/affiliate',
  'features/videos/components/VideoPageView.tsx -> ../../recommendations/components/CrossNavigationShelf',
  'features/quickies/routes/ReelActions.tsx -> ../../recommendations/tracking',
  'features/signup/routes/screens.tsx -> ../../subscription/purchase',
  'features/signup/routes/screens.tsx -> ../../account/routes/UsernameScreen',
  'features/home/routes/screens.tsx -> ../../recommendations/components/RecommendationGrid',
  'features/subscription/modals.tsx -> ../signup/affiliate',
  'features/subscription/modals.tsx -> ../signup/prices',
]

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
        if (!viaIndex && !KNOWN_CROSSINGS.includes(`${from.join('/')} -> ${source}`)) {
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
)
