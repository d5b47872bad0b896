// The join and signup-result screens. The join screen lives on the members host (/joinnow with ref, elm and nats,
// which name where the visitor came from); it keeps those values on its way on, to the login for existing members.
import { useLocation } from 'react-router'
import { loginUrl, withQuery } from '../../../app/routing'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { joinTracking } from '../joinTracking'
import './signup.css'

export function JoinNowScreen() {
  const { tenant } = useSession()
  const location = useLocation()
  // Support hears where the visitor came from, as the join form would have.
  const tracking = Object.fromEntries(
    Object.entries(joinTracking(new URLSearchParams(location.search))).filter((entry): entry is [string, string] => entry[1] !== null),
  )
  return (
    <Page title={`Join ${tenant.site}`}>
      <div className="join">
        <ul className="join__benefits">
          <li>Every video in full, in up to 4K</li>
          <li>New releases every week</li>
          <li>Picture sets and downloads</li>
          <li>Cancel any time</li>
        </ul>
        <section className="join__options" aria-labelledby="join-options-heading">
          <h2 id="join-options-heading">Membership options</h2>
          <p role="status">
            Membership options are not available to buy online at the moment. Please come back later, or contact
            support and we will help you join.
          </p>
          <p>
            <a className="button button--accent" href={withQuery(`${tenant.membersUrl.replace(/\/+$/, '')}/support`, tracking)}>
              Contact support
            </a>
          </p>
        </section>
        <p>
          Already a member?{' '}
          <a href={loginUrl(tenant.membersUrl, `${location.pathname}${location.search}`)}>Log in</a>
        </p>
      </div>
    </Page>
  )
}

export function SignupSuccessScreen() {
  return <Page title="Welcome" />
}

export function SignupDeniedScreen() {
  return <Page title="Signup Denied" />
}

export function UpgradeMembershipScreen() {
  return <Page title="Upgrade Membership" />
}

export function ParentRedirectScreen() {
  return <Page title="Redirecting" />
}
