// What other features use of the recommendations feature: its shelves and grid, and the reel tracking.
export { CrossNavigationShelf } from './components/CrossNavigationShelf'
export { RecommendationGrid } from './components/RecommendationGrid'
export { trackerOf, trackReel } from './tracking'
