// The abilities that hold each upgrade prompt (product.md, "Roles and abilities"), computed by the server. A module of its
// own, with no copy and no rules beside it: the overlay's slot, in every video page's chunk, asks one of them without
// loading the prompts (prompts.ts).
export const PROMPT_ABILITIES = {
  upgradeBar: ['see', 'UpgradeBar'],
  pornPortalBar: ['see', 'PornPortalBar'],
  upgradeOverlay: ['see', 'UpgradeOverlay'],
  reactivateCancelledRebill: ['see', 'ReactivateCancelledRebillModal'],
  freeLimitedTrialVideos: ['see', 'FreeLimitedTrialVideos'],
} as const satisfies Record<string, readonly [string, string]>
