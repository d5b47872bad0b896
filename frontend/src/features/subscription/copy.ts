// The subscription modals: purchase, reactivation, yearly upgrade, promotional video and the subscription status.
import { addTranslations } from '../../app/i18n/resources'

export const subscriptionCopy = {
  purchase_membership_modal: {
    processing: 'Processing…',
    charge_consent: 'I agree to be charged with the payment method on file for my membership.',
    loading_options: 'Loading your options…',
    options_failed: 'Failed to load the membership options. Please try again later.',
    expired: 'Your membership has expired.',
    reactivate_site: 'Reactivate {{site}} to watch every video in full again.',
    reactivate_now: 'Reactivate now',
    trial_upgrade: 'Upgrade your trial to a full membership of {{site}}: every video in full, downloads and gems.',
    multisite: 'Get every site with the multisite package, charged to the card you pay your membership with.',
    buy_multisite: 'Buy the multisite package',
    rejoin: 'Your membership has expired. Rejoin {{site}} to watch every video again.',
    become_member: 'Become a member of {{site}} to watch every video in full, download and unlock channels.',
    see_options: 'See membership options',
  },
  reactivate_cancelled_rebill_modal: {
    reactivate_cancelled_rebill_failed: 'Your membership could not be reactivated. Please contact support.',
    loading: 'Loading your offer…',
    load_failed: 'Your offer could not be loaded. Please try again later.',
    done: 'Your membership is active again.',
    intro: 'Your membership is cancelled. Reactivate it to keep watching, and keep your gems and channels.',
    reactivating: 'Reactivating…',
    offer_price: 'Stay for {{price}} {{currency}} instead of {{current}} {{currentCurrency}}.',
    offer_gems: 'Stay and get {{gems}} gems.',
    offer_stay: 'Stay with us.',
  },
  upgrade_yearly_modal: {
    intro: 'Switch to a yearly membership of every site and pay less for each month.',
    options_failed: 'Failed to load the upgrade options. Please try again later.',
  },
  promotional_video_modal: {
    text: 'New this week: fresh releases from every site, in full 4K.',
    watch: 'Watch the new releases',
    later: 'Maybe later',
  },
  subscription_status_modal: {
    updating: 'Your membership is being updated…',
    wait:
      'This can take a few minutes. If it is not updated within {{minutes}} minutes, please log in later and contact support.',
    polling_failed:
      'Your membership is not updated yet. Please log in later, and contact support if it is not updated within 10 minutes.',
  },
} as const

addTranslations(subscriptionCopy)
