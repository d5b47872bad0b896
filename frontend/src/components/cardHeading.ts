// The level a card's title takes where the card stands, so a page's headings descend one level at a time (WCAG 1.3.1;
// axe's and Lighthouse's heading-order): a listing right under the page's h1 titles its cards h2; a titled section
// (a shelf, whose own heading is h2) titles them h3. The section says so to everything inside it.
import { createContext, useContext } from 'react'

export type CardHeading = 'h2' | 'h3'

export const CardHeadingContext = createContext<CardHeading>('h2')

/** The level of a card title here. */
export function useCardHeading(): CardHeading {
  return useContext(CardHeadingContext)
}
