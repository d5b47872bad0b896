//! The write path: load, decide, append and project in one transaction, for the admin API,
//! the users' interstitial answers, the carousel tracking and the seed alike.

use proto_events::deals::{deal_carousel_stream_id, deal_stream_id, interstitial_stream_id, Deal, DealEvent};
use proto_events::{Envelope, EventMeta};
use runtime::StoreError;
use uuid::Uuid;

use crate::domain::{DealCommand, DealError, DealStream, Interstitial, InterstitialCommand, InterstitialStream};
use crate::projections::apply_deal_events;
use crate::State;

/// What a deal command did: the deal after it, and whether it recorded anything.
#[derive(Clone, Debug, PartialEq)]
pub struct DealOutcome {
    pub deal: Deal,
    pub changed: bool,
}

/// Runs a command on deal `deal_id`. A refusal is `Ok(Err(..))`; a store failure `Err`.
pub async fn run_deal(
    state: &State,
    deal_id: Uuid,
    command: DealCommand,
    meta: &EventMeta,
) -> Result<Result<DealOutcome, DealError>, StoreError> {
    let executed = state
        .store
        .execute::<DealStream, _>(
            &deal_stream_id(deal_id),
            meta,
            || command.clone(),
            |conn, written, _| Box::pin(apply_deal_events(conn, written)),
        )
        .await?;
    Ok(match executed {
        Ok(done) => match done.state {
            Some(deal) => Ok(DealOutcome { deal, changed: !done.events.is_empty() }),
            None => Err(DealError::NotFound(deal_id)),
        },
        Err(DealError::NotFound(_)) => Err(DealError::NotFound(deal_id)),
        Err(e) => Err(e),
    })
}

/// Runs a user's answer to the interstitial; returns their interstitial after it.
pub async fn run_interstitial(
    state: &State,
    user_id: Uuid,
    command: InterstitialCommand,
    meta: &EventMeta,
) -> Result<Interstitial, StoreError> {
    let executed = state
        .store
        .execute::<InterstitialStream, _>(
            &interstitial_stream_id(user_id),
            meta,
            || command.clone(),
            |conn, written, _| Box::pin(apply_deal_events(conn, written)),
        )
        .await?;
    match executed {
        Ok(done) => Ok(done.state),
        Err(never) => match never {},
    }
}

/// Records one tracked carousel step in a stream of its own.
pub async fn track_carousel(state: &State, event: DealEvent, meta: &EventMeta) -> Result<(Uuid, Envelope), StoreError> {
    let tracking_id = Uuid::now_v7();
    let mut tx = state.pool.begin().await?;
    let mut written = state.store.append(&mut tx, &deal_carousel_stream_id(tracking_id), 0, &[event], meta).await?;
    apply_deal_events(&mut tx, &written).await?;
    tx.commit().await?;
    state.store.wake_relay();
    Ok((tracking_id, written.remove(0)))
}
