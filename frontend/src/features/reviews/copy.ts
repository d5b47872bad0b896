// The review modal.
import { addTranslations } from '../../app/i18n/resources'

export const reviewsCopy = {
  reviews: {
    overall: 'Overall',
    scale: '{{label}}: {{n}} of {{max}}',
    loading: 'Loading your review…',
    failed: 'Your review could not be loaded.',
  },
} as const

addTranslations(reviewsCopy)
