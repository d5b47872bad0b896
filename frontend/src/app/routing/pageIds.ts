// Navigation page ids (product.md, "Screens and routes").

export const pageIds = {
  video: (slug: string) => `video:${slug}`,
  trailer: (slug: string) => `trailer:video:${slug}`,
  pictureSet: (slug: string) => `pictureSet:${slug}`,
  performer: (slug: string) => `performer:${slug}`,
  category: (slug: string) => `category:${slug}`,
  angel: (slug: string) => `angel:${slug}`,
  channel: (channelSlug: string) => `channel:${channelSlug}`,
  channelPack: (channelSlug: string, channelPackSlug: string) => `channel:${channelSlug}:${channelPackSlug}`,
} as const
