// Video unlocks, downloads and the locked pages.
import { addTranslations } from '../../app/i18n/resources'

export const unlocksCopy = {
  video_unlock_modal: {
    error: 'Failed to unlock the video. Please try again later.',
    trial_expired: 'Your limited trial expired. Upgrade to watch every video in full.',
    no_credits: 'You have no credits left. Upgrade your membership to watch every video.',
    already_unlocked: 'You have already unlocked this video.',
    free_video_label: 'Watch as a free video ({{left}} left)',
    free_video_note: 'Watch {{title}} in full as one of your {{free}} free videos: {{left}} left.',
    reactivate_label: 'Reactivate membership',
    reactivate_note: 'Your membership has expired. Reactivate it to watch this video again.',
    support_note: 'Your membership includes this video, but it could not be opened. Our support team will sort it out.',
    note_channel_pack: 'This video is in a channel pack you have not unlocked yet.',
    note_other_site: 'Your membership does not include this site.',
    note_not_included: 'Your membership does not include this video yet.',
    label_channel_pack: 'Unlock the channel pack',
    label_unlock_video: 'Unlock this video',
  },
  unlock_channel_modal: {
    named_pack: 'the {{name}} pack',
  },
  download: {
    not_included: 'Downloads are not included in your membership.',
    left: '{{left}} of {{max}} downloads left in this {{days}}-day period.',
    quota_reached: 'Download limit of {{max}} exceeded, try again in {{count}} days.',
    quota_reached_one: 'Download limit of {{max}} exceeded, try again in {{count}} day.',
  },
  unlock_video: {
    this_video: 'this video',
    unlocked: '{{title}} is unlocked for good.',
    credits_left: 'You have {{count}} credits left.',
    free_videos_left_sentence: 'You have {{count}} free videos left.',
    free_videos_left_sentence_one: 'You have {{count}} free video left.',
    upgrade: 'Upgrade membership',
    free_trial: 'Watch {{title}} in full as one of your {{count}} free videos.',
    free_videos_left: '{{count}} free videos left.',
    free_videos_left_one: '{{count}} free video left.',
    watch_free: 'Watch as a free video',
    intro: 'Unlock {{title}} for good with {{count}} credits, or upgrade to a membership and watch every video.',
    intro_one: 'Unlock {{title}} for good with {{count}} credit, or upgrade to a membership and watch every video.',
    credits: 'You have {{count}} credits.',
    unlock: 'Unlock for {{count}} credits',
    unlock_one: 'Unlock for {{count}} credit',
  },
  downloads: {
    heading: 'Download',
    started: 'Downloading {{file}}',
  },
  locked: {
    members_only: 'Members only',
    get_full_access: 'Get full access',
    start_failed: 'The video could not be started.',
    try_again: 'Try again',
    checking: 'Checking what your membership includes…',
    text: {
      pictures: 'The picture set of {{title}} is not part of your membership yet.',
      trailer: 'The trailer of {{title}} is not part of your membership yet.',
      video: '{{title}} is not part of your membership yet.',
      page: 'This page is not part of your membership yet.',
    },
  },
} as const

addTranslations(unlocksCopy)
