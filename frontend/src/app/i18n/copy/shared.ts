// Keys that several features' screens (or the shared screen code the home page does not use) read: in the chunk of
// shared screen code beyond the landing page (build/sharedChunk.ts), not in the entry. A key one feature alone reads
// is that feature's (features/<feature>/copy.ts); copy.test.ts checks that every key here has several readers.
import { addTranslations } from '../resources'

export const sharedCopy = {
  common: {
    continue: 'Continue',
    watch_now: 'Watch now',
    unlocking: 'Unlocking…',
    contact_support: 'Contact support',
    apply: 'Apply',
    try_again: 'Something went wrong. Please try again later.',
  },
  account: {
    email: 'E-mail',
    password_label: 'Password',
    username_label: 'Username',
    membership: {
      reactivate: 'Reactivate my membership',
      upgrade_yearly: 'Upgrade to yearly',
    },
  },
  unlock_channel_modal: {
    this_pack: 'this channel pack',
  },
  signup: {
    choose_username: 'Choose your username',
  },
  purchase_membership_modal: {
    payment_failed: 'Your payment failed. Please contact support.',
    choose: 'Choose your membership',
    upgrade_now: 'Upgrade now',
  },
  rating: {
    overall_first: 'Oops! Please leave your overall rating first to continue',
  },
  pagination: {
    label: 'Pages',
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page {{page}}',
  },
  listing: {
    videos: 'videos',
    models: 'models',
    channels: 'channels',
  },
  videos: {
    order: { label: 'Order' },
    go_to_video: 'Go to the video',
    your_rating: 'Your rating',
    rate: 'Rate',
    you_rated: 'You rated it {{rating}}.',
  },
  performers: {
    video_count: '{{count}} videos',
  },
} as const

addTranslations(sharedCopy)
