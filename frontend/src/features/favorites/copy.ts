// The favourites screens.
import { addTranslations } from '../../app/i18n/resources'

export const favoritesCopy = {
  favorites: {
    channels_label: 'Favorite channels',
    section: '{{title}} ({{count}})',
    nothing_yet: 'Nothing here yet.',
    performers: 'Performers',
    none: 'You have no favorite {{noun}} yet.',
    videos_title: 'Favorite Videos',
    performers_title: 'Favorite Performers',
    performers_noun: 'performers',
    channels_title: 'Favorite Channel Videos',
  },
} as const

addTranslations(favoritesCopy)
