//! Retention: `getRetentionOffer` (display rules against the cancelled rebill),
//! `reactivateCancelledRebill`, cancel, and `creditCardUpdate` (only for the biller path
//! /vxnbill). All three writes are native facts of the subscription (RGNATIVE: product.md, "Payments and billers" shows the
//! reactivate-cancelled-rebill modal for a cancelled RGNATIVE subscription only).

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::commands::{self, native_fact, Recorded, Submission};
use crate::config::{JoinOption, RetentionOffer};
use crate::domain::Step;
use crate::view::SubscriptionRow;
use crate::{queries, State, NATIVE_BILLER};

pub use subscription_contract::api::{ReactivateCancelledRebill, RetentionOfferView};

/// The biller path that may update a card (product.md, "Payments and billers").
pub const CARD_UPDATE_BILLER_PATH: &str = "/vxnbill";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RetentionRefusal {
    #[error("no cancelled rebill to reactivate")]
    NothingToReactivate,
    #[error("this retention offer is not available")]
    OfferUnavailable,
    #[error("the deal is not the offer's")]
    DealMismatch,
    #[error("the user may only act on their own subscription")]
    NotYours,
    #[error("no active subscription to cancel")]
    NothingToCancel,
    #[error("this subscription is cancelled at its biller")]
    CancelAtBiller,
    #[error("the card of this subscription cannot be updated here")]
    CardUpdateUnavailable,
}

impl RetentionRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            RetentionRefusal::NothingToReactivate => "NOTHING_TO_REACTIVATE",
            RetentionRefusal::OfferUnavailable => "RETENTION_OFFER_UNAVAILABLE",
            RetentionRefusal::DealMismatch => "DEAL_MISMATCH",
            RetentionRefusal::NotYours => "FORBIDDEN",
            RetentionRefusal::NothingToCancel => "NOTHING_TO_CANCEL",
            RetentionRefusal::CancelAtBiller => "CANCEL_AT_BILLER",
            RetentionRefusal::CardUpdateUnavailable => "UPDATE_CREDIT_CARD_ERROR",
        }
    }

    /// The spec's flash translation key for the screen to show.
    pub fn flash(&self) -> &'static str {
        match self {
            RetentionRefusal::CardUpdateUnavailable => "account.update_credit_card_error",
            _ => "reactivate_cancelled_rebill_modal.reactivate_cancelled_rebill_failed",
        }
    }
}

/// Cents of a decimal price (`"29.95"`), for comparing.
pub fn cents(price: &str) -> Option<i64> {
    let (whole, fraction) = price.split_once('.').unwrap_or((price, "0"));
    let fraction = format!("{fraction:0<2}");
    if fraction.len() != 2 {
        return None;
    }
    Some(whole.parse::<i64>().ok()? * 100 + fraction.parse::<i64>().ok()?)
}

/// Whether `offer` may be shown for `sub` (rebilling under `option`) on `tenant`.
pub fn offer_applies(offer: &RetentionOffer, sub: &SubscriptionRow, option: &JoinOption, tenant: &str) -> bool {
    let rules = &offer.display_rules;
    let amount = cents(&option.rebill_price);
    let in_range = match (amount, cents(&rules.price_range.min), cents(&rules.price_range.max)) {
        (Some(a), Some(min), Some(max)) => min <= a && a <= max,
        _ => false,
    };
    in_range
        && rules.rebill_period == option.rebill_period_days
        && (rules.sites.contains(&sub.site) || sub.sites.iter().any(|s| rules.sites.contains(s)))
        && rules.subscription_type == sub.kind
        && rules.brands.iter().any(|b| b == tenant)
        && offer.currencies.contains(&option.currency)
}

/// The user's cancelled rebill: a cancelled subscription still running, or lapsed but not
/// charged back or refunded; the most recent.
async fn cancelled_rebill(state: &State, user: Uuid) -> Result<Option<(SubscriptionRow, JoinOption)>, sqlx::Error> {
    let subs = queries::own_subscriptions(&state.pool, user).await?;
    for sub in subs.into_iter().filter(|s| {
        s.cancelled && s.kind != "porn-portal" && !matches!(s.ended.as_deref(), Some("charged_back" | "refunded"))
    }) {
        let Some(terms) = queries::terms(&state.pool, sub.subscription_id).await? else { continue };
        if let Some(option) = terms.join_option_id.and_then(|id| state.config.join_option(id as u32)) {
            return Ok(Some((sub, option.clone())));
        }
    }
    Ok(None)
}

/// `getRetentionOffer(userUuid)`: the first configured offer whose rules the cancelled rebill meets.
pub async fn retention_offer(
    state: &State,
    user: Uuid,
    tenant: &str,
) -> Result<Option<RetentionOfferView>, sqlx::Error> {
    let Some((sub, option)) = cancelled_rebill(state, user).await? else { return Ok(None) };
    Ok(state.config.retention_offers.iter().find(|o| offer_applies(o, &sub, &option, tenant)).map(|o| {
        RetentionOfferView {
            name: o.name.clone(),
            currencies: o.currencies.clone(),
            display_rules: o.display_rules.clone(),
            deal: o.deal.clone(),
            current_rebill_amount: option.rebill_price.clone(),
            current_rebill_currency: option.currency.clone(),
            subscription_id: sub.subscription_id,
        }
    }))
}

/// `reactivateCancelledRebill(userUuid, retentionOfferName, deal)`.
pub async fn reactivate_cancelled_rebill(
    state: &State,
    user: Uuid,
    tenant: &str,
    r: &ReactivateCancelledRebill,
) -> Result<Result<(), RetentionRefusal>, runtime::StoreError> {
    if r.user_uuid != user {
        return Ok(Err(RetentionRefusal::NotYours));
    }
    let Some((sub, option)) = cancelled_rebill(state, user).await? else {
        return Ok(Err(RetentionRefusal::NothingToReactivate));
    };
    if sub.biller != NATIVE_BILLER {
        return Ok(Err(RetentionRefusal::NothingToReactivate));
    }
    let Some(offer) = state.config.retention_offers.iter().find(|o| o.name == r.retention_offer_name) else {
        return Ok(Err(RetentionRefusal::OfferUnavailable));
    };
    if !offer_applies(offer, &sub, &option, tenant) {
        return Ok(Err(RetentionRefusal::OfferUnavailable));
    }
    if offer.deal != r.deal {
        return Ok(Err(RetentionRefusal::DealMismatch));
    }
    // One reactivation per cancel: the transaction id names the cancel it answers.
    let cancel: Option<String> = sqlx::query_scalar(
        "select transaction_id from postback where subscription_id = $1 and step = 'cancel'
         order by occurred_at desc, transaction_id desc limit 1",
    )
    .bind(sub.subscription_id)
    .fetch_optional(&state.pool)
    .await?;
    let tx_id = format!("RGN-REACT-{}-{}", sub.subscription_id, cancel.unwrap_or_default());
    // An offer's gems are given once per subscription: cancelling and taking the offer again
    // reactivates, but pays nothing more (else cancel + reactivate would farm gems).
    let offer_taken_before: bool = sqlx::query_scalar(
        "select exists (select 1 from postback where subscription_id = $1 and transaction_id like 'RGN-REACT-%'
                        and raw_body::jsonb ->> 'retentionOfferName' = $2)",
    )
    .bind(sub.subscription_id)
    .bind(&offer.name)
    .fetch_one(&state.pool)
    .await?;
    let offered_gems = if offer_taken_before { 0 } else { offer.deal.offered_gems.unwrap_or(0) };
    let step = Step::Reactivation { retention_offer_name: Some(offer.name.clone()), offered_gems };
    let record = native_fact(
        sub.subscription_id,
        &tx_id,
        tx_id.clone(),
        Utc::now(),
        step,
        &json!({ "retentionOfferName": offer.name, "deal": offer.deal }),
    );
    let meta = commands::biller_meta(NATIVE_BILLER, Some(tenant), None);
    commands::record(&state.store, &Submission { records: vec![record], start: None, meta, approves: None }).await?;
    Ok(Ok(()))
}

/// Cancels the user's current native rebill (other billers cancel at the biller).
pub async fn cancel(
    state: &State,
    user: Uuid,
    tenant: &str,
) -> Result<Result<Recorded, RetentionRefusal>, runtime::StoreError> {
    let read = queries::read(&state.pool, user, tenant, Utc::now()).await?;
    if read.tandem_subscription.is_tandem_child_account {
        return Ok(Err(RetentionRefusal::NotYours));
    }
    let subs = queries::own_subscriptions(&state.pool, user).await?;
    let current = subs
        .iter()
        .filter(|s| s.active && !s.cancelled && s.kind != "porn-portal")
        .find(|s| s.sites.iter().any(|x| x == tenant))
        .or_else(|| subs.iter().find(|s| s.active && !s.cancelled && s.kind != "porn-portal"));
    let Some(sub) = current else { return Ok(Err(RetentionRefusal::NothingToCancel)) };
    if sub.biller != NATIVE_BILLER {
        return Ok(Err(RetentionRefusal::CancelAtBiller));
    }
    // One cancel per stretch of membership: named after the reactivations before it.
    let reactivations: i64 =
        sqlx::query_scalar("select count(*) from postback where subscription_id = $1 and step = 'reactivation'")
            .bind(sub.subscription_id)
            .fetch_one(&state.pool)
            .await?;
    let tx_id = format!("RGN-CANCEL-{}-{reactivations}", sub.subscription_id);
    let record =
        native_fact(sub.subscription_id, &tx_id, tx_id.clone(), Utc::now(), Step::Cancel, &json!({ "by": "member" }));
    let meta = commands::biller_meta(NATIVE_BILLER, Some(tenant), None);
    Ok(Ok(commands::record(&state.store, &Submission { records: vec![record], start: None, meta, approves: None })
        .await?))
}

/// `creditCardUpdate`: a url only when the current biller's path is /vxnbill.
pub async fn credit_card_update(
    state: &State,
    user: Uuid,
    tenant: &str,
) -> Result<Result<String, RetentionRefusal>, sqlx::Error> {
    let read = queries::read(&state.pool, user, tenant, Utc::now()).await?;
    let Some(biller) = read.biller.filter(|b| b.url == CARD_UPDATE_BILLER_PATH) else {
        return Ok(Err(RetentionRefusal::CardUpdateUnavailable));
    };
    let Some(template) = state.config.biller(&biller.name).and_then(|b| b.card_update_url.clone()) else {
        return Ok(Err(RetentionRefusal::CardUpdateUnavailable));
    };
    let current = read.subscriptions.iter().find(|s| s.biller == biller.name).map(|s| s.subscription_id);
    let reference = match current {
        Some(id) => queries::terms(&state.pool, id).await?.map(|t| t.subscription_ref).unwrap_or_default(),
        None => String::new(),
    };
    let url = template.replace("{sandbox}", &state.config.sandbox_url);
    Ok(Ok(format!("{url}?member={}", crate::billers::form_encode(&reference))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_compare_in_cents() {
        assert_eq!(cents("29.95"), Some(2995));
        assert_eq!(cents("14"), Some(1400));
        assert_eq!(cents("1.5"), Some(150));
        assert_eq!(cents("1.555"), None);
    }
}
