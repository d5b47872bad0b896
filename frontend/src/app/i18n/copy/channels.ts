// The channels screens.
import { addTranslations } from '../resources'

export const channelsCopy = {
  channels: {
    all_videos: 'All channel videos',
    packs: 'Packs',
  },
} as const

addTranslations(channelsCopy)
