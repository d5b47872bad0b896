// Where a video of a channel's grid leads: its page under the channel (the channel and pack screens).
export const channelVideoHref = (channelSlug: string) => (video: { slug: string }) => `/channels/${channelSlug}/videos/${video.slug}`
