// The showcases routes' screens, one lazy chunk (./index.ts imports this module): the list and a showcase, each in
// its own file.
export { ShowcasesScreen } from './ShowcasesScreen'
export { ShowcaseScreen } from './ShowcaseScreen'
