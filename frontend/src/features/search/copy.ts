// The search screen.
import { addTranslations } from '../../app/i18n/resources'

export const searchCopy = {
  search: {
    title: 'Search: {{text}}',
    showing: 'Showing results for “{{terms}}”.',
    nothing: 'Nothing matches “{{text}}”.',
  },
} as const

addTranslations(searchCopy)
