// The gems balance, the gems modals and channel pack unlocks.
import { addTranslations } from '../../app/i18n/resources'

export const gemsCopy = {
  unlock_channel_modal: {
    failed_to_load_balance: 'Failed to load your gems balance. Please try again later.',
    failed: 'Failed to unlock the channel pack. Please try again later.',
    intro: 'Unlock {{pack}} for good with your gems.',
    unlocked: '{{pack}} is unlocked.',
    unlock: 'Unlock for {{cost}} gems',
    already_unlocked: 'You have already unlocked this channel pack.',
    not_enough_funds: 'Not enough funds.',
    not_enough_gems: 'Not enough gems. New gems arrive in {{count}} days.',
    not_enough_gems_one: 'Not enough gems. New gems arrive in {{count}} day.',
  },
  count: {
    gems: '{{count}} gems',
    gems_one: '{{count}} gem',
    days: '{{count}} days',
    days_one: '{{count}} day',
  },
  gems: {
    heading: 'Gems',
    header_label: 'Your gems: {{gems}}',
    account_balance: 'You have {{gems}}. New gems in {{days}}.',
    see_all: 'See my gems and transactions',
    unlocked: 'Unlocked',
    unlock_pack: 'Unlock {{pack}} for {{cost}} gems',
    balance: 'Your balance',
    cost: 'Cost',
    new_gems_in: 'New gems in',
    loading: 'Loading your gems…',
    got_it: 'Got it',
    preference_failed: 'Your gems preference could not be saved.',
    intro:
      'Gems unlock channel packs. {{perFriday}} free gems arrive every Friday for each site you subscribe to, and each channel pack costs {{cost}} gems. Gems and unlocked channels are lost if you cancel.',
    transactions: {
      loading: 'Loading your transactions…',
      failed: 'Your transactions could not be loaded.',
      none: 'No transactions yet.',
      caption: 'Transactions',
      date: 'Date',
      what: 'What',
      gems: 'Gems',
    },
  },
} as const

addTranslations(gemsCopy)
