// The quickies (reels) screens.
import { addTranslations } from '../../app/i18n/resources'

export const quickiesCopy = {
  listing: {
    quickies: 'quickies',
  },
  quickies: {
    alt: 'Quickie: {{title}}',
    views: '{{count}} views',
    watch_full: 'Watch the full video',
    bookmark: 'Bookmark ({{count}})',
    remove_bookmark: 'Remove bookmark ({{count}})',
    bookmarked: 'Bookmarked.',
    bookmark_removed: 'Bookmark removed.',
    remove_rating: 'Remove my rating',
    rating_removed: 'Your rating is removed.',
    unlock_full: 'Unlock the full video',
    failed: 'That did not work. Please try again later.',
    video_failed: 'The video could not be loaded. Please try again later.',
  },
} as const

addTranslations(quickiesCopy)
