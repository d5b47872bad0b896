// The angels screens.
import { addTranslations } from '../../app/i18n/resources'

export const angelsCopy = {
  angels: {
    all_videos_with: 'All videos with {{name}}',
  },
} as const

addTranslations(angelsCopy)
