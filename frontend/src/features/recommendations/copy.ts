// Recommendation shelves and screens.
import { addTranslations } from '../../app/i18n/resources'

export const recommendationsCopy = {
  recommendations: {
    title: 'Recommended videos',
    none: 'No recommendations yet.',
    more_from_our_sites: 'More from our sites',
  },
} as const

addTranslations(recommendationsCopy)
