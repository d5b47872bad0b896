//! Outgoing one-click upsells (product.md, "Deals, offers and upsells" `outgoingUpsellOneclick`, `outgoingUpsellOneclickTracking`):
//! a partner's membership sold in one click to a member, charged by the member's own biller
//! under that biller's upsell id (`epoch_upsellid`, `segpay_upsellid`, `rg_upsellid` of the
//! /oneclick/outgoing-upsell route).
//!
//! - No active membership, or no upsell id for the member's biller: not sold, the browser goes
//!   to the fallback.
//! - `confirmationRequired`: nothing is charged; the answer carries the confirmation modal
//!   (price initial and recurring, title, description, component).
//! - Otherwise the sale is recorded once per member and offer (a repeat answers the same) and
//!   the browser goes to the member link.
//!
//! The member link and the fallback must be this site's paths or addresses on the offer's
//! partner hosts: the answer is a redirect, and must not become an open one.

use chrono::Utc;
use uuid::Uuid;

use crate::config::OutgoingUpsell;
use crate::{queries, State};

pub use subscription_contract::api::{
    ConfirmationModal, OutgoingUpsellAnswer, OutgoingUpsellRequest, TrackingAnswer, TrackingRequest,
};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutgoingRefusal {
    #[error("Outgoing upsell - the member link is missing")]
    MemberLinkMissing,
    #[error("Outgoing upsell - {0} is not an address of this site or of the partner")]
    UnexpectedLink(&'static str),
}

impl OutgoingRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            OutgoingRefusal::MemberLinkMissing => "MEMBER_LINK_MISSING",
            OutgoingRefusal::UnexpectedLink(_) => "UNEXPECTED_LINK",
        }
    }
}

/// Whether `link` is a path of this site (`/x`, never `//host`) or an http(s) address on one
/// of `hosts`.
pub fn link_allowed(link: &str, hosts: &[String]) -> bool {
    if link.starts_with('/') {
        return !link.starts_with("//") && !link.contains('\\') && !link.chars().any(char::is_control);
    }
    let Some((scheme, rest)) = link.split_once("://") else { return false };
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return false;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') || authority.contains('\\') {
        return false;
    }
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    !host.is_empty() && hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
}

/// The upsell id the request gives for `biller`.
fn upsell_id_for<'a>(r: &'a OutgoingUpsellRequest, biller: &str) -> Option<&'a str> {
    match biller {
        "EPOCH" => r.epoch_upsell_id.as_deref(),
        "SEGPAY" => r.segpay_upsell_id.as_deref(),
        crate::NATIVE_BILLER => r.rg_upsell_id.as_deref(),
        _ => None,
    }
    .map(str::trim)
    .filter(|id| !id.is_empty())
}

fn modal(offer: &OutgoingUpsell) -> ConfirmationModal {
    ConfirmationModal {
        price: offer.price.clone(),
        title: offer.title.clone(),
        description: offer.description.clone(),
        component: offer.component.clone(),
    }
}

fn fallback(r: &OutgoingUpsellRequest) -> OutgoingUpsellAnswer {
    OutgoingUpsellAnswer {
        success: false,
        redirect_url: r.fallback_url.clone(),
        redirect_to_confirmation_step: false,
        confirmation_modal: None,
    }
}

/// `outgoingUpsellOneclick` for `user` on `tenant`.
pub async fn oneclick(
    state: &State,
    user: Uuid,
    tenant: &str,
    r: &OutgoingUpsellRequest,
) -> Result<Result<OutgoingUpsellAnswer, OutgoingRefusal>, sqlx::Error> {
    let Some(member_link) = r.member_link.as_deref().map(str::trim).filter(|l| !l.is_empty()) else {
        return Ok(Err(OutgoingRefusal::MemberLinkMissing));
    };
    let read = queries::read(&state.pool, user, tenant, Utc::now()).await?;
    let biller = read.light.subscription.biller.clone().filter(|_| read.light.subscription.is_active);
    let offer = biller.as_deref().and_then(|b| {
        let id = upsell_id_for(r, b)?;
        state.config.outgoing_upsells.iter().find(|o| o.upsell_ids.get(b).is_some_and(|x| x == id))
    });
    // The links are checked against the offer's partner (or, without one, this site only).
    let hosts = offer.map(|o| o.partner_hosts.clone()).unwrap_or_default();
    if !link_allowed(member_link, &hosts) {
        return Ok(Err(OutgoingRefusal::UnexpectedLink("memberLink")));
    }
    if r.fallback_url.as_deref().is_some_and(|f| !link_allowed(f, &hosts)) {
        return Ok(Err(OutgoingRefusal::UnexpectedLink("fallbackUrl")));
    }
    let (Some(biller), Some(offer)) = (biller, offer) else {
        record_attempt(state, user, None, None, r, "unavailable").await?;
        return Ok(Ok(fallback(r)));
    };
    if r.confirmation_required {
        return Ok(Ok(OutgoingUpsellAnswer {
            success: false,
            redirect_url: None,
            redirect_to_confirmation_step: true,
            confirmation_modal: Some(modal(offer)),
        }));
    }
    record_attempt(state, user, Some(offer), Some(&biller), r, "charged").await?;
    Ok(Ok(OutgoingUpsellAnswer {
        success: true,
        redirect_url: Some(member_link.to_owned()),
        redirect_to_confirmation_step: false,
        confirmation_modal: None,
    }))
}

/// Records what an outgoing upsell did; a member buys an offer once (a repeat changes nothing).
async fn record_attempt(
    state: &State,
    user: Uuid,
    offer: Option<&OutgoingUpsell>,
    biller: Option<&str>,
    r: &OutgoingUpsellRequest,
    status: &str,
) -> Result<(), sqlx::Error> {
    let upsell_id = biller.and_then(|b| upsell_id_for(r, b));
    sqlx::query(
        "insert into outgoing_upsell (attempt_id, user_id, offer, biller, upsell_id, click_id, member_link,
             fallback_url, price, recurring_price, currency, status)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (user_id, offer) where status = 'charged' do nothing",
    )
    .bind(Uuid::now_v7())
    .bind(user)
    .bind(offer.map(|o| o.name.as_str()))
    .bind(biller)
    .bind(upsell_id)
    .bind(&r.click_id)
    .bind(r.member_link.as_deref().map(str::trim))
    .bind(&r.fallback_url)
    .bind(offer.map(|o| o.price.initial.as_str()))
    .bind(offer.map(|o| o.price.recurring.as_str()))
    .bind(offer.map(|o| o.currency.as_str()))
    .bind(status)
    .execute(&state.pool)
    .await?;
    Ok(())
}

/// `outgoingUpsellOneclickTracking(status)`: records the outcome the browser landed on and
/// answers where it goes next: the member link of the last sale on the success route, the
/// fallback of the last attempt on the failure route.
pub async fn tracking(state: &State, user: Uuid, r: &TrackingRequest) -> Result<TrackingAnswer, sqlx::Error> {
    let row: Option<(Uuid, Option<String>, Option<String>)> = sqlx::query_as(
        "select attempt_id, member_link, fallback_url from outgoing_upsell
         where user_id = $1 and ($2 = false or status = 'charged') and created_at > now() - interval '1 day'
         order by created_at desc limit 1",
    )
    .bind(user)
    .bind(r.status)
    .fetch_optional(&state.pool)
    .await?;
    let Some((attempt_id, member_link, fallback_url)) = row else {
        return Ok(TrackingAnswer { success: false, redirect_url: None });
    };
    sqlx::query("update outgoing_upsell set tracked_outcome = $2, tracked_at = now() where attempt_id = $1")
        .bind(attempt_id)
        .bind(if r.status { "success" } else { "failure" })
        .execute(&state.pool)
        .await?;
    let redirect_url = if r.status { member_link } else { fallback_url };
    Ok(TrackingAnswer { success: true, redirect_url })
}

#[cfg(test)]
mod tests {
    use super::link_allowed;

    #[test]
    fn only_this_sites_paths_and_the_partners_hosts_are_redirect_targets() {
        let hosts = vec!["partner.example.com".to_owned()];
        for ok in [
            "/deals",
            "/_upsell_signupdenial?x=1",
            "https://partner.example.com/members",
            "http://PARTNER.example.com:8443/in?x=1",
        ] {
            assert!(link_allowed(ok, &hosts), "{ok}");
        }
        for bad in [
            "//evil.example.com/x",
            "/\\evil.example.com",
            "https://evil.example.com/",
            "https://partner.example.com@evil.example.com/",
            "https://partner.example.com.evil.example.com/",
            "javascript:alert(1)",
            "ftp://partner.example.com/",
            "partner.example.com/x",
            "",
        ] {
            assert!(!link_allowed(bad, &hosts), "{bad}");
        }
    }
}
