// The site header: the brand's wordmark and the navigation, one dropdown open at a time. On a phone (up to the
// medium breakpoint, 768 px) it is one compact row: a menu button that opens the navigation, the wordmark, and a
// search icon that opens the search form; from 769 px everything shows as before.
import { useId, useState } from 'react'
import { Form, Link, NavLink, useLocation } from 'react-router'
import { useTranslation } from '../i18n'
import { ABILITIES, signInUrl } from '../routing'
import type { RoutingSession } from '../session/bootstrap'
import { SignOutControls } from '../session/SignOut'
import { JoinLink } from '../../components/JoinLink'
import { GemsEntrySlot } from './GemsEntrySlot'
import { DropdownGroup, NavDropdown } from './NavDropdown'

export function Header({ session }: { session: RoutingSession }) {
  const { t } = useTranslation()
  const location = useLocation()
  const { tenant, user } = session
  const { features } = tenant
  const [seeAction, channelsSubject] = ABILITIES.seeChannels
  const here = `${location.pathname}${location.search}`
  const [open, setOpen] = useState<'menu' | 'search' | null>(null)
  // A navigation closes the phone's menu and search (derived while rendering, as the dropdowns do).
  const [seenKey, setSeenKey] = useState(location.key)
  if (seenKey !== location.key) {
    setSeenKey(location.key)
    setOpen(null)
  }
  const toggle = (what: 'menu' | 'search') => setOpen((current) => (current === what ? null : what))
  const menuId = useId()
  const searchId = useId()
  const item = (to: string, label: string) => (
    <li>
      <NavLink to={to}>{label}</NavLink>
    </li>
  )

  return (
    <header className={`site-header${open ? ` site-header--${open}-open` : ''}`}>
      <a className="skip-link" href="#content">
        {t('navigation.skip_to_content')}
      </a>
      <button
        type="button"
        className="site-header__toggle site-header__menu-button"
        aria-expanded={open === 'menu'}
        aria-controls={menuId}
        onClick={() => toggle('menu')}
      >
        <span aria-hidden="true">☰</span>
        <span className="visually-hidden">{t('navigation.menu')}</span>
      </button>
      <Link to="/" className="wordmark" aria-label={`${tenant.theme.wordmark} – ${t('navigation.home')}`}>
        {tenant.theme.wordmark}
      </Link>
      <button
        type="button"
        className="site-header__toggle site-header__search-button"
        aria-expanded={open === 'search'}
        aria-controls={searchId}
        onClick={() => toggle('search')}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2.2">
          <circle cx="10.5" cy="10.5" r="6.5" />
          <path d="M15.5 15.5 21 21" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">{t('navigation.search')}</span>
      </button>
      <Form id={searchId} action="/search" role="search" className="site-search">
        <label htmlFor="site-search-q" className="visually-hidden">
          {t('navigation.search')}
        </label>
        <input id="site-search-q" type="search" name="q" required placeholder={t('navigation.search_placeholder')} />
        <button type="submit" className="button">{t('navigation.search')}</button>
      </Form>
      <DropdownGroup>
        <nav id={menuId} className="site-nav" aria-label={t('navigation.main')}>
          <NavDropdown id="videos" label={t('navigation.videos')}>
            {item('/videos', t('navigation.all_videos'))}
            {item('/toprated', t('navigation.top_rated'))}
            {tenant.headerFeatures.awardsLink ? item('/awards', t('navigation.awards')) : null}
            {item('/categories', t('navigation.categories'))}
          </NavDropdown>
          <NavLink to="/performers" className="site-nav__link">
            {t('navigation.models')}
          </NavLink>
          {user.can(seeAction, channelsSubject) ? (
            <NavLink to="/channels" className="site-nav__link">
              {t('navigation.channels')}
            </NavLink>
          ) : null}
          <NavDropdown id="more" label={t('navigation.more')}>
            {item('/deals', t('navigation.deals'))}
            {features.showcasesPage ? item('/showcases', t('navigation.showcases')) : null}
            {features.reels ? item('/quickies', t('navigation.quickies')) : null}
            {features.showAngels ? item('/angels', t('navigation.angels')) : null}
            {features.curator ? item('/wall', t('navigation.wall')) : null}
          </NavDropdown>
          <GemsEntrySlot session={session} />
          {user.isAuthenticated ? (
            <NavDropdown id="account" label={t('navigation.my_account')}>
              {item('/account', t('navigation.account'))}
              {item('/favorites', t('navigation.favorites'))}
              {item('/offers', t('navigation.offers'))}
              <li>
                <SignOutControls className="sign-out sign-out--menu" />
              </li>
            </NavDropdown>
          ) : (
            <>
              <a className="site-nav__link" href={signInUrl(tenant, here)}>
                {t('navigation.login')}
              </a>
              <JoinLink elm="header" campaign="header" className="site-nav__link site-nav__join">
                {t('navigation.join')}
              </JoinLink>
            </>
          )}
        </nav>
      </DropdownGroup>
    </header>
  )
}
