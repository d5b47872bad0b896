//! Gems and credits: the balance, the transactions, the new-gems acknowledgement.

use async_graphql::{Context, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    context::{request, upstreams},
    errors,
};

#[derive(Default)]
pub struct WalletQuery;

#[derive(Default)]
pub struct WalletMutation;

/// getGemsBalance's answer: the wallet's, and `percentageOfUnlockedChannelPacks`, which the
/// unlocks service owns and is asked for only when the query names it.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase", complex)]
pub struct GemsBalance {
    pub days_until_refresh_gems: u32,
    pub gems: GemsState,
    pub wallet: Wallet,
    pub pay_per_video_credits: u64,
    /// The gems each earning site subscription receives a week (product.md, "Gems and the wallet"): the wallet's
    /// configured amount.
    pub weekly_gems: u64,
}

#[async_graphql::ComplexObject(rename_fields = "camelCase")]
impl GemsBalance {
    /// The share of the brand's channel packs the user holds: the unlocks service's figure, as
    /// `unlockState` and the profile answer it.
    async fn percentage_of_unlocked_channel_packs(&self, ctx: &Context<'_>) -> async_graphql::Result<u32> {
        let state = upstreams(ctx).unlocks.unlock_state(&request(ctx).call()).await.map_err(errors::upstream)?;
        Ok(state.percentage_of_unlocked_channel_packs)
    }
}

#[derive(SimpleObject)]
pub struct GemsState {
    pub last_acknowledgement_date: Option<DateTime<Utc>>,
    /// Gems arrived since the last acknowledgement.
    pub has_new_gems: bool,
    /// The gems modal may show (at most once a day).
    pub may_show_gems_modal: bool,
}

#[derive(SimpleObject)]
pub struct Wallet {
    pub balance: Balance,
}

#[derive(SimpleObject)]
pub struct Balance {
    pub amount: u64,
}

#[derive(SimpleObject)]
pub struct Transaction {
    pub amount: u64,
    pub currency: String,
    pub created_at: DateTime<Utc>,
    pub transaction_type: String,
    pub transaction_reason: String,
}

#[derive(SimpleObject)]
pub struct AcknowledgeNewGemsBalanceResult {
    pub last_acknowledgement_date: Option<DateTime<Utc>>,
}

#[Object]
impl WalletQuery {
    /// The signed-in user's gems: balance, days until new gems, the last acknowledgement.
    async fn get_gems_balance(&self, ctx: &Context<'_>) -> async_graphql::Result<GemsBalance> {
        let request = request(ctx);
        let viewer = request.viewer()?;
        let b = upstreams(ctx).wallet.gems_balance(viewer.id(), &request.call()).await.map_err(errors::upstream)?;
        Ok(GemsBalance {
            days_until_refresh_gems: b.days_until_refresh_gems,
            gems: GemsState {
                last_acknowledgement_date: b.gems.last_acknowledgement_date,
                has_new_gems: b.gems.has_new_gems,
                may_show_gems_modal: b.gems.may_show_gems_modal,
            },
            wallet: Wallet { balance: Balance { amount: b.wallet.balance.amount } },
            pay_per_video_credits: b.pay_per_video_credits,
            weekly_gems: b.weekly_gems,
        })
    }

    /// The signed-in user's wallet transactions, newest first.
    async fn get_transactions(
        &self,
        ctx: &Context<'_>,
        since: Option<DateTime<Utc>>,
    ) -> async_graphql::Result<Vec<Transaction>> {
        let request = request(ctx);
        let viewer = request.viewer()?;
        let answer =
            upstreams(ctx).wallet.transactions(viewer.id(), since, &request.call()).await.map_err(errors::upstream)?;
        Ok(answer
            .transactions
            .into_iter()
            .map(|t| Transaction {
                amount: t.amount,
                currency: t.currency,
                created_at: t.created_at,
                transaction_type: t.transaction_type,
                transaction_reason: t.transaction_reason,
            })
            .collect())
    }
}

#[Object]
impl WalletMutation {
    /// Marks the new gems as seen (the gems modal then waits a day).
    async fn acknowledge_new_gems_balance(
        &self,
        ctx: &Context<'_>,
    ) -> async_graphql::Result<AcknowledgeNewGemsBalanceResult> {
        let request = request(ctx);
        let viewer = request.viewer()?;
        let answer = upstreams(ctx)
            .wallet
            .acknowledge_new_gems_balance(viewer.id(), &request.call())
            .await
            .map_err(errors::upstream)?;
        Ok(AcknowledgeNewGemsBalanceResult { last_acknowledgement_date: answer.last_acknowledgement_date })
    }
}
