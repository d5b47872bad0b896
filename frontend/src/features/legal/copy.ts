// The legal and support pages.
import { addTranslations } from '../../app/i18n/resources'

export const legalCopy = {
  legal: {
    error_report: 'Your error report: {{id}}. Quote it when you write to us, so we can find what went wrong.',
  },
  legal_pages: {
    casting: {
      title: 'Casting',
      s1: {
        heading: 'Work with {{site}}',
        p1: '{{site}} casts adult performers, 18 years of age or older, for professional productions.',
        p2:
          'Send your name, your age, the city you live in and two recent photos through the support page. Every applicant is asked for two forms of government-issued identification before any booking.',
      },
      s2: {
        heading: 'What to expect',
        p1:
          'Productions follow written consent, health and safety protocols, and every performer may stop a scene at any time.',
      },
    },
    support: {
      title: 'Support',
      s1: {
        heading: 'Billing and your membership',
        p1:
          'Charges for {{site}} appear on your statement under the name of the biller that processed them. To cancel, reactivate or update your card, open your account page while signed in.',
        p2:
          'If a purchase or an upgrade was charged but your membership has not changed within 10 minutes, sign out and in again; if it still has not changed, contact us with the e-mail address of your account.',
      },
      s2: {
        heading: 'Signing in',
        p1:
          'Use the e-mail address and password you joined with. A cancelled membership keeps access until the end of the paid period; an expired one can be renewed from the upgrade page after signing in.',
      },
      s3: {
        heading: 'Contact',
        p1:
          'Write to {{siteLower}} customer support from the e-mail address of your account, with the date and amount of any charge you ask about. We answer every request, usually within one business day.',
      },
    },
    terms: {
      title: 'Terms of service',
      s1: {
        heading: 'Who may use this site',
        p1:
          '{{site}} is for adults only. By entering you confirm that you are at least 18 years old (or the age of majority where you live) and that adult content is legal where you are.',
      },
      s2: {
        heading: 'Memberships',
        p1:
          'A membership gives personal, non-transferable access to the content of the site it was bought for. Memberships renew until cancelled; cancelling stops the next renewal and keeps access until the paid period ends.',
        p2:
          'Sharing login details, redistributing content or circumventing access controls ends the membership without refund.',
      },
      s3: {
        heading: 'Billing',
        p1:
          'Payments are processed by third-party billers, whose name appears on your statement. Questions about a charge go to support or to the biller.',
      },
    },
    privacy: {
      title: 'Privacy policy',
      s1: {
        heading: 'What we keep',
        p1:
          'Your e-mail address, your membership and its payments (never your full card number), your preferences such as autoplay and e-mail consent, and what you favourite, rate or comment on.',
      },
      s2: {
        heading: 'Why',
        p1:
          'To give you access to what you paid for, to keep the site safe, to answer support requests and, only with your consent, to send you news and offers.',
      },
      s3: {
        heading: 'Your choices',
        p1:
          'You may ask for a copy of your data, for its correction or for its deletion through the support page. E-mail consent can be withdrawn at any time on the account page.',
        p2:
          'Content you appear in, or that was published without consent, can be reported for removal; every report is reviewed by a person.',
      },
    },
    compliance: {
      title: '18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement',
      s1: {
        heading: 'Compliance statement',
        p1:
          'All persons who appear in any visual depiction of actual or simulated sexually explicit conduct on {{site}} were over the age of eighteen years at the time the depictions were created.',
        p2:
          'The records required by 18 U.S.C. 2257 and 28 C.F.R. 75 for all materials on this site are kept by the custodian of records, whose name and address are available on request through the support page.',
      },
    },
  },
} as const

addTranslations(legalCopy)
