// English copy by the spec's translation keys (account-payments-gems.md §8, screens-routes-access.md §2.2, §8).
// Quoted copy is the spec's own; where the spec names a key and its meaning only, the wording is ours.

export const en = {
  common: {
    go_home: 'Go Home',
    fill_a_report: 'Fill a report',
    close: 'Close',
    continue: 'Continue',
    loading: 'Loading…',
  },
  error_page: {
    text: 'Something went wrong! We are working to fix this as soon as possible.',
    title_500: 'Server Error',
    title_404: 'Page Not Found',
    not_found_text: 'The page you are looking for does not exist.',
  },
  flash: {
    dismiss: 'Dismiss notification',
    region: 'Notifications',
  },
  deviceChallenge: {
    approved: 'Your device has been approved.',
    blocked: 'The device has been blocked.',
  },
  notification: {
    upgradesuccess: 'Your membership has been upgraded.',
    upgradedenial: 'Your upgrade was declined by the billing processor. Please try a different card.',
  },
  account: {
    password_changed: 'Your password was changed. It works on {{brands}}.',
    flash_unknown_error: 'We could not update your e-mail preferences. Please try again later.',
    flash_email_consent_updated: 'Your e-mail preferences have been updated.',
    update_credit_card_error: 'We could not start the credit card update. Please try again later.',
  },
  video_unlock_modal: {
    error: 'Failed to unlock the video. Please try again later.',
  },
  unlock_channel_modal: {
    failed_to_load_balance: 'Failed to load your gems balance. Please try again later.',
    failed: 'Failed to unlock the channel pack. Please try again later.',
    already_unlocked: 'You have already unlocked this channel pack.',
    not_enough_funds: 'Not enough funds.',
    not_enough_gems: 'Not enough gems. New gems arrive in {{count}} days.',
  },
  purchase_membership_modal: {
    payment_failed: 'Your payment failed. Please contact support.',
  },
  reactivate_cancelled_rebill_modal: {
    reactivate_cancelled_rebill_failed: 'Your membership could not be reactivated. Please contact support.',
  },
  subscription_status_modal: {
    updating: 'Your membership is being updated…',
    polling_failed:
      'Your membership is not updated yet. Please log in later, and contact support if it is not updated within 10 minutes.',
  },
  download: {
    quota_reached: 'Download limit of {{max}} exceeded, try again in {{count}} days.',
  },
  rating: {
    overall_first: 'Oops! Please leave your overall rating first to continue',
    already_rated: 'You have already rated',
  },
  comments: {
    duplicate: 'You have already made that comment',
    banned_word: 'Found banned word',
    add_failed: 'Failed to add your comment. Try refreshing page',
  },
  vip_modal: {
    title: 'VIP',
    subtitle: 'Exclusive membership',
    note: 'Please enter your own e-mail address and choose a password for your membership.',
    invalid_email: 'Invalid email address.',
    invalid_password: 'Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.',
    EMAIL_ALREADY_EXISTS: 'This email already exists. Please choose another one.',
    INVALID_EMAIL: 'Email is not valid.',
    failed: 'Failed to update your credentials. Please contact customer support.',
  },
  health_warning: {
    title: 'Health warning',
    acknowledge: 'I understand',
    'US-TX':
      'TEXAS HEALTH AND HUMAN SERVICES WARNING: Pornography is potentially biologically addictive, is proven to harm human brain development, desensitizes brain reward circuits, increases conditioned responses, and weakens brain function.',
    'US-AL':
      'ALABAMA HEALTH WARNING: Pornography is potentially biologically addictive, is proven to harm human brain development, desensitizes brain reward circuits, increases conditioned responses, and weakens brain function.',
    helpline: 'If you or someone you know needs help, call the SAMHSA National Helpline at 1-800-662-4357.',
  },
  modal: {
    UnlockChannel: 'Unlock channel',
    OneClickConsent: 'Confirm your purchase',
    EmailConsent: 'E-mail preferences',
    UnlockOrUpgradeMembership: 'Unlock or upgrade',
    ReactivateCancelledRebill: 'Reactivate your membership',
    UserGemsInfo: 'Your gems',
    SubscriptionStatus: 'Membership update',
    ConfirmOutgoingUpsell: 'Confirm your purchase',
    ConvertVipUser: 'VIP',
    HealthWarning: 'Health warning',
    PromotionalVideo: 'Something new for you',
    PurchaseMembership: 'Join now',
    TandemAccountCreation: 'Create a second account',
    UpgradeToYearlyMembership: 'Upgrade to a yearly membership',
    CamsConsent: 'Cams',
    ExpertReviewModal: 'Expert review',
  },
  pagination: {
    label: 'Pages',
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page {{page}}',
  },
  navigation: {
    main: 'Main',
    home: 'Home',
    videos: 'Videos',
    all_videos: 'All videos',
    top_rated: 'Top rated',
    awards: 'Awards',
    categories: 'Categories',
    models: 'Models',
    channels: 'Channels',
    more: 'More',
    deals: 'Deals',
    showcases: 'Showcases',
    quickies: 'Quickies',
    angels: 'Angels',
    wall: 'Wall',
    my_account: 'My account',
    account: 'Account',
    favorites: 'Favorites',
    offers: 'Offers',
    join: 'Join now',
    login: 'Log in',
    skip_to_content: 'Skip to content',
  },
} as const
