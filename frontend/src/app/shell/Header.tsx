// The site header: the brand's wordmark and the navigation, one dropdown open at a time.
import { Form, Link, NavLink, useLocation } from 'react-router'
import { useTranslation } from '../i18n'
import { ABILITIES, loginUrl } from '../routing'
import type { RoutingSession } from '../session/bootstrap'
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
  const item = (to: string, label: string) => (
    <li>
      <NavLink to={to}>{label}</NavLink>
    </li>
  )

  return (
    <header className="site-header">
      <a className="skip-link" href="#content">
        {t('navigation.skip_to_content')}
      </a>
      <Link to="/" className="wordmark" aria-label={`${tenant.theme.wordmark} – ${t('navigation.home')}`}>
        {tenant.theme.wordmark}
      </Link>
      <Form action="/search" role="search" className="site-search">
        <label htmlFor="site-search-q" className="visually-hidden">
          {t('navigation.search')}
        </label>
        <input id="site-search-q" type="search" name="q" required placeholder={t('navigation.search_placeholder')} />
        <button type="submit" className="button">{t('navigation.search')}</button>
      </Form>
      <DropdownGroup>
        <nav className="site-nav" aria-label={t('navigation.main')}>
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
            </NavDropdown>
          ) : (
            <>
              <a className="site-nav__link" href={loginUrl(tenant.membersUrl, here)}>
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
