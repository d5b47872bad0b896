// The wall screen.
import { addTranslations } from '../../app/i18n/resources'

export const wallCopy = {
  wall: {
    posts: 'Posts',
  },
} as const

addTranslations(wallCopy)
