// The wall screen.
import { addTranslations } from '../resources'

export const wallCopy = {
  wall: {
    posts: 'Posts',
  },
} as const

addTranslations(wallCopy)
