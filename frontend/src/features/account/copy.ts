// The account page, username, password and account modals.
import { addTranslations } from '../../app/i18n/resources'

export const accountCopy = {
  common: {
    saving: 'Saving…',
    choose: 'Choose…',
  },
  account: {
    username: {
      yours: 'Your username',
      chosen: 'Your username is {{username}}. A username is permanent once chosen.',
      chosen_flash: 'Your username is {{username}}.',
      back: 'Back to your account',
      intro: 'Your username is how other members know you. Choose it carefully: it cannot be changed later.',
      rule: '3 to 20 characters: lower-case letters and numbers only, no symbols.',
      submit: 'Choose this username',
      save_failed: 'Your username could not be saved. Please try again later.',
      invalid: 'invalid username',
      taken: 'already taken',
    },
    identity: 'Your account',
    display_name: {
      heading: 'Display name',
      label: 'Shown beside your comments',
      save: 'Save display name',
      saved: 'Your display name has been saved.',
      save_failed: 'Your display name could not be saved.',
    },
    preferences: {
      heading: 'Preferences',
      emails: 'E-mails about new releases and offers',
      autoplay: 'Autoplay videos',
      autoplay_failed: 'Your autoplay preference could not be saved.',
    },
    relationship: {
      heading: 'Relationship status',
      status: 'Status',
      role: 'Role',
      statuses: {
        single: 'single',
        'in a relationship': 'in a relationship',
        married: 'married',
        'it is complicated': 'it is complicated',
      },
      roles: { husband: 'husband', wife: 'wife', partner: 'partner', boyfriend: 'boyfriend', girlfriend: 'girlfriend' },
      save: 'Save relationship status',
      saved: 'Your relationship status has been saved.',
      save_failed: 'Your relationship status could not be saved.',
    },
    membership: {
      heading: 'Membership',
      upgrade: 'Upgrade my membership',
      update_card: 'Update credit card',
      inactive: 'inactive',
      cancelled: 'cancelled',
    },
    field: {
      show: 'Show',
      hide: 'Hide',
      clear: 'Clear',
      show_named: 'Show {{field}}',
      hide_named: 'Hide {{field}}',
      clear_named: 'Clear {{field}}',
    },
    password: {
      heading: 'Change password',
      current: 'Current password',
      new: 'New password',
      confirm: 'Confirm new password',
      submit: 'Change password',
      signs_out: 'Changing your password signs you out everywhere else.',
      change_failed: 'Your password could not be changed. Please try again later.',
    },
    legal: {
      read: 'Read our {{terms}} and {{privacy}}.',
      agree: 'By continuing you agree to our {{terms}} and {{privacy}}.',
      terms: 'Terms of Service',
      privacy: 'Privacy Policy',
    },
    email_consent: {
      agree: 'I agree',
      decline: 'No, thanks',
      text_guest:
        'I confirm that I am 18 years of age or older, I agree to the Terms of Service and the Privacy Policy, and I agree to receive marketing e-mails.',
      text_tandem:
        'I confirm that I am 18 years of age or older and I agree to the Terms of Service and the Privacy Policy.',
      text_member: 'I agree to receive e-mails about new releases, offers and my membership.',
    },
    tandem: {
      heading: 'Second account',
      child: 'This account shares the membership of {{parent}}.',
      another_member: 'another member',
      shared: 'Your membership is shared with your second account.',
      offer: 'Share your membership with a second account.',
      needs_active: 'A second account needs an active membership.',
      intro:
        'A second account shares your membership with someone you trust. It signs in with its own e-mail and password and does not see channels.',
      email: 'Their e-mail',
      password: 'Their password',
      username: 'Their username (optional)',
      creating: 'Creating…',
      create: 'Create account',
      created: 'Your second account is ready. It can sign in with its own e-mail.',
      TANDEM_CHILD_EXISTS: 'Your account already has a second account.',
      TANDEM_PARENT_INACTIVE: 'A second account shares an active membership; yours is not active.',
      FORBIDDEN: 'A second account cannot create another.',
    },
    cams: {
      intro:
        'Cams are run by our partner. To continue, we share your e-mail address with them so you can sign in there without another account.',
      agree: 'Agree and continue',
      not_now: 'Not now',
      consent_failed: 'Your consent could not be saved. Please try again later.',
    },
    password_changed: 'Your password was changed. It works on {{brands}}.',
    flash_unknown_error: 'We could not update your e-mail preferences. Please try again later.',
    flash_email_consent_updated: 'Your e-mail preferences have been updated.',
    update_credit_card_error: 'We could not start the credit card update. Please try again later.',
    username_taken_meanwhile:
      'Another member took the username {{username}} while your payment went through. Your membership is active: choose another username.',
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
} as const

addTranslations(accountCopy)
