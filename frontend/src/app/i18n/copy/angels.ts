// The angels screens.
import { addTranslations } from '../resources'

export const angelsCopy = {
  angels: {
    all_videos_with: 'All videos with {{name}}',
  },
} as const

addTranslations(angelsCopy)
