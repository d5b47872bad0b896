// The channels screens.
import { addTranslations } from '../../app/i18n/resources'

export const channelsCopy = {
  channels: {
    all_videos: 'All channel videos',
    packs: 'Packs',
  },
} as const

addTranslations(channelsCopy)
