// The legal pages: their copy is in ./copy.ts (legal_pages), plain, neutral text the brand's name is
// put into; the operator's lawyers own the real wording.
import { t } from '../../app/i18n'
import './copy'

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
        title: t('legal_pages.casting.title'),
        sections: [
          {
            heading: t('legal_pages.casting.s1.heading', { site }),
            paragraphs: [
              t('legal_pages.casting.s1.p1', { site }),
              t('legal_pages.casting.s1.p2'),
            ],
          },
          {
            heading: t('legal_pages.casting.s2.heading'),
            paragraphs: [
              t('legal_pages.casting.s2.p1'),
            ],
          },
        ],
      }
    case 'support':
      return {
        title: t('legal_pages.support.title'),
        sections: [
          {
            heading: t('legal_pages.support.s1.heading'),
            paragraphs: [
              t('legal_pages.support.s1.p1', { site }),
              t('legal_pages.support.s1.p2'),
            ],
          },
          {
            heading: t('legal_pages.support.s2.heading'),
            paragraphs: [
              t('legal_pages.support.s2.p1'),
            ],
          },
          {
            heading: t('legal_pages.support.s3.heading'),
            paragraphs: [
              t('legal_pages.support.s3.p1', { siteLower: site.toLowerCase() }),
            ],
          },
        ],
      }
    case 'terms':
      return {
        title: t('legal_pages.terms.title'),
        sections: [
          {
            heading: t('legal_pages.terms.s1.heading'),
            paragraphs: [
              t('legal_pages.terms.s1.p1', { site }),
            ],
          },
          {
            heading: t('legal_pages.terms.s2.heading'),
            paragraphs: [
              t('legal_pages.terms.s2.p1'),
              t('legal_pages.terms.s2.p2'),
            ],
          },
          {
            heading: t('legal_pages.terms.s3.heading'),
            paragraphs: [
              t('legal_pages.terms.s3.p1'),
            ],
          },
        ],
      }
    case 'privacy':
      return {
        title: t('legal_pages.privacy.title'),
        sections: [
          {
            heading: t('legal_pages.privacy.s1.heading'),
            paragraphs: [
              t('legal_pages.privacy.s1.p1'),
            ],
          },
          {
            heading: t('legal_pages.privacy.s2.heading'),
            paragraphs: [
              t('legal_pages.privacy.s2.p1'),
            ],
          },
          {
            heading: t('legal_pages.privacy.s3.heading'),
            paragraphs: [
              t('legal_pages.privacy.s3.p1'),
              t('legal_pages.privacy.s3.p2'),
            ],
          },
        ],
      }
    case 'compliance':
      return {
        title: t('legal_pages.compliance.title'),
        sections: [
          {
            heading: t('legal_pages.compliance.s1.heading'),
            paragraphs: [
              t('legal_pages.compliance.s1.p1', { site }),
              t('legal_pages.compliance.s1.p2'),
            ],
          },
        ],
      }
  }
}
