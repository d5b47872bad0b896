// The legal pages' copy. Plain, neutral text the brand's name is put into; the operator's lawyers own the real wording.

export interface LegalSection {
  heading: string
  paragraphs: readonly string[]
}

export interface LegalDocument {
  title: string
  sections: readonly LegalSection[]
}

export type LegalContentId = 'casting' | 'terms' | 'privacy' | 'compliance' | 'support'

export function legalDocument(content: LegalContentId, site: string): LegalDocument {
  switch (content) {
    case 'casting':
      return {
        title: 'Casting',
        sections: [
          {
            heading: `Work with ${site}`,
            paragraphs: [
              `${site} casts adult performers, 18 years of age or older, for professional productions.`,
              'Send your name, your age, the city you live in and two recent photos through the support page. Every applicant is asked for two forms of government-issued identification before any booking.',
            ],
          },
          {
            heading: 'What to expect',
            paragraphs: [
              'Productions follow written consent, health and safety protocols, and every performer may stop a scene at any time.',
            ],
          },
        ],
      }
    case 'support':
      return {
        title: 'Support',
        sections: [
          {
            heading: 'Billing and your membership',
            paragraphs: [
              `Charges for ${site} appear on your statement under the name of the biller that processed them. To cancel, reactivate or update your card, open your account page while signed in.`,
              'If a purchase or an upgrade was charged but your membership has not changed within 10 minutes, sign out and in again; if it still has not changed, contact us with the e-mail address of your account.',
            ],
          },
          {
            heading: 'Signing in',
            paragraphs: [
              'Use the e-mail address and password you joined with. A cancelled membership keeps access until the end of the paid period; an expired one can be renewed from the upgrade page after signing in.',
            ],
          },
          {
            heading: 'Contact',
            paragraphs: [
              `Write to ${site.toLowerCase()} customer support from the e-mail address of your account, with the date and amount of any charge you ask about. We answer every request, usually within one business day.`,
            ],
          },
        ],
      }
    case 'terms':
      return {
        title: 'Terms of service',
        sections: [
          {
            heading: 'Who may use this site',
            paragraphs: [
              `${site} is for adults only. By entering you confirm that you are at least 18 years old (or the age of majority where you live) and that adult content is legal where you are.`,
            ],
          },
          {
            heading: 'Memberships',
            paragraphs: [
              'A membership gives personal, non-transferable access to the content of the site it was bought for. Memberships renew until cancelled; cancelling stops the next renewal and keeps access until the paid period ends.',
              'Sharing login details, redistributing content or circumventing access controls ends the membership without refund.',
            ],
          },
          {
            heading: 'Billing',
            paragraphs: [
              'Payments are processed by third-party billers, whose name appears on your statement. Questions about a charge go to support or to the biller.',
            ],
          },
        ],
      }
    case 'privacy':
      return {
        title: 'Privacy policy',
        sections: [
          {
            heading: 'What we keep',
            paragraphs: [
              'Your e-mail address, your membership and its payments (never your full card number), your preferences such as autoplay and e-mail consent, and what you favourite, rate or comment on.',
            ],
          },
          {
            heading: 'Why',
            paragraphs: [
              'To give you access to what you paid for, to keep the site safe, to answer support requests and, only with your consent, to send you news and offers.',
            ],
          },
          {
            heading: 'Your choices',
            paragraphs: [
              'You may ask for a copy of your data, for its correction or for its deletion through the support page. E-mail consent can be withdrawn at any time on the account page.',
              'Content you appear in, or that was published without consent, can be reported for removal; every report is reviewed by a person.',
            ],
          },
        ],
      }
    case 'compliance':
      return {
        title: '18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement',
        sections: [
          {
            heading: 'Compliance statement',
            paragraphs: [
              `All persons who appear in any visual depiction of actual or simulated sexually explicit conduct on ${site} were over the age of eighteen years at the time the depictions were created.`,
              'The records required by 18 U.S.C. 2257 and 28 C.F.R. 75 for all materials on this site are kept by the custodian of records, whose name and address are available on request through the support page.',
            ],
          },
        ],
      }
  }
}
