// The reviews feature's modal, its lazy chunk (app/shell/modalBodies.ts imports this module): the modal is in its own
// file.
export { ExpertReviewModal } from './ExpertReviewModal'
