// The categories routes' screen, its lazy chunk (./index.ts imports this module): the screen is in its own file.
export { CategoriesScreen } from './CategoriesScreen'
