// Join, welcome, denial and upgrade screens.
import { addTranslations } from '../../app/i18n/resources'

export const signupCopy = {
  signup: {
    creating_account: 'Creating your account… This takes a few seconds.',
    welcome: 'Welcome to {{site}}, {{username}}! Your membership is ready.',
    welcome_multisite: 'Welcome, {{username}}! Your membership opens every site of the network.',
    account_creation_login_error:
      'Your payment went through. Please log in with the e-mail and password you chose, or contact support.',
    denied: 'Your payment was declined by the billing processor. Please try a different card.',
    denied_reason: 'Reason: {{reason}}',
    username_lost:
      'Your payment went through and your {{site}} membership is active, but another member took the username {{username}} meanwhile. Choose another username to continue.',
    signing_in: 'Signing you in…',
    log_in_to_choose_username: 'Log in to choose your username',
    start_failed: 'Your membership could not be started. Please try again later.',
    check_failed: 'We could not check your new account.',
    every_site: 'Every site of the network',
    payment_method: 'Payment method',
    please_wait: 'Please wait…',
    continue_to_payment: 'Continue to payment',
    benefits: {
      full_videos: 'Every video in full, in up to 4K',
      new_releases: 'New releases every week',
      pictures: 'Picture sets and downloads',
      cancel: 'Cancel any time',
    },
    options_heading: 'Membership options',
    options_unavailable:
      'Membership options are not available to buy online at the moment. Please come back later, or contact support and we will help you join.',
    already_member: 'Already a member?',
    welcome_title: 'Welcome',
    start_watching: 'Start watching',
    log_in_to_start: 'Log in to start watching',
    denied_title: 'Signup Denied',
    try_different_card: 'Try a different card',
    redirecting: 'Redirecting',
    upgrade: {
      title: 'Upgrade Membership',
      intro: 'Your trial is ready. Upgrade now to a full membership and watch every video in full.',
      price: '{{charge}} every {{days}} days',
      consent: 'I agree to be charged {{charge}} now with the card I joined with.',
      continue_trial: 'Continue with my trial',
    },
  },
} as const

addTranslations(signupCopy)
