// The sister-site screens.
import { addTranslations } from '../../app/i18n/resources'

export const sitesCopy = {
  sites: {
    videos: '{{brand}} videos',
    models: '{{brand}} models',
  },
} as const

addTranslations(sitesCopy)
