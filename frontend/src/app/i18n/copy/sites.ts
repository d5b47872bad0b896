// The sister-site screens.
import { addTranslations } from '../resources'

export const sitesCopy = {
  sites: {
    videos: '{{brand}} videos',
    models: '{{brand}} models',
  },
} as const

addTranslations(sitesCopy)
