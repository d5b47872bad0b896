// The performer pages.
import { addTranslations } from '../../app/i18n/resources'

export const performersCopy = {
  performers: {
    order: { rating: 'Top rated', name: 'Name', newest: 'Newest', videos: 'Most videos' },
    show: 'Show',
    gender: { girls: 'Girls', guys: 'Guys', all: 'All' },
    sex: { F: 'Female', M: 'Male' },
    join_for: 'Join {{site}} for {{name}}',
    lead_all: "All {{count}} of {{name}}'s videos in full.",
    lead: "{{name}}'s videos in full.",
  },
} as const

addTranslations(performersCopy)
