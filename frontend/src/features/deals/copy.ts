// Deal cards, offers, cams and the one-click upsell screens.
import { addTranslations } from '../../app/i18n/resources'

export const dealsCopy = {
  common: {
    cancel: 'Cancel',
  },
  deals: {
    exclusive: 'Exclusive',
    get: 'Get the deal',
    our_partner: 'our partner',
    price_then: ', then ',
    price: 'Price: {{price}}',
    confirm_purchase: 'Confirm purchase',
    one_click: {
      text:
        'Buy {{partner}} with one click, charged to the card you pay your membership with. Your e-mail address is shared with {{partnerName}} to set up your account.',
      text_price:
        'Buy {{partner}} with one click, charged to the card you pay your membership with for {{price}}. Your e-mail address is shared with {{partnerName}} to set up your account.',
      buy: 'Yes, buy now',
    },
    featured: 'Featured deals',
    previous: 'Previous deals',
    next: 'Next deals',
    all: 'All deals',
    none: 'No deals right now. Come back soon.',
    cams: {
      title: 'Cams',
      intro:
        'Cams are run by our partner. We have not shared anything with them: they hear from us only once you agree.',
      continue: 'Continue to cams',
    },
    offers: {
      heading: 'Special offers for {{site}} members',
      intro: 'Hand-picked deals from our partners. Take one, or go on to {{site}}.',
      continue: 'Continue to {{site}}',
      hide: 'Hide for one month',
      hide_failed: 'The offers could not be hidden. Please try again later.',
      hidden_until: 'Offers are hidden until {{until}}.',
      hidden: 'Offers are hidden for one month.',
      for_you: 'Offers for you',
      none: 'No offers right now. Come back soon.',
    },
    upsell: {
      title: 'One-Click Purchase',
      log_in_to: 'Log in to {{what}}.',
      what: 'buy with one click',
      preparing: 'Preparing your purchase…',
      confirm: 'Please confirm your purchase.',
      complete_leaving: 'Your purchase is complete. Taking you to your new membership…',
      leaving: 'Taking you to the offer…',
      denied: 'One-click upsell denied. Your membership cannot pay for this offer.',
      success_title: 'Purchase Complete',
      success: 'Thank you! Your purchase is complete.',
      failure_title: 'Purchase Not Completed',
      failure: 'One-click upsell denied. Your purchase was not completed.',
    },
  },
} as const

addTranslations(dealsCopy)
