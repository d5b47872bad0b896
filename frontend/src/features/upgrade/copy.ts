// The upgrade prompt bars and overlay.
import { addTranslations } from '../../app/i18n/resources'

export const upgradeCopy = {
  upgrade: {
    bar_upgrade: 'Upgrade',
    bar_porn_portal: 'Porn portal',
    overlay: 'Upgrade to watch the full video',
    bars: {
      cancelled: 'Your membership is cancelled and ends with the period you paid for.',
      free_trial: 'Your free trial includes 3 full videos. Upgrade to watch every video on {{site}}.',
      expired: 'Your membership has expired. Rejoin to watch every video on {{site}} again.',
      trial: 'You are on a trial. Upgrade to a full membership to watch every video on {{site}}.',
      porn_portal: 'You pay per video. A membership opens every video on {{site}}.',
      upgrade: 'Upgrade to watch every video on {{site}}.',
      miss_site: 'Miss {{site}}? Come back for every video, or pick single videos with pay-per-video credits.',
    },
    actions: {
      get_membership: 'Get a membership',
      see_options: 'See your options',
      rejoin: 'Rejoin now',
      see_free_videos: 'See your free videos',
    },
  },
} as const

addTranslations(upgradeCopy)
