//! How a wallet answers a command: the events it records ([`decide`]), and a debit's
//! receipt ([`debit`]).

use proto_events::wallet::{Asset, CreditsGrantReason, GemsGrantReason, WalletEvent};

use super::command::{friday_gems_reference, transaction_reference, Command, DomainError, Earning, Grant};
use super::wallet::{evolve, DebitReceipt, Wallet};

/// Gems per Friday per site subscription (product.md, "Gems and the wallet"); the default of the configured amount.
pub const FRIDAY_GEMS: u64 = 10;

pub fn decide(wallet: &Wallet, command: Command) -> Result<Vec<WalletEvent>, DomainError> {
    let user_id = wallet.user_id;
    match command {
        Command::GrantFridayGems { subscription_id, week, amount, earning } => {
            let reference = friday_gems_reference(subscription_id, week.key);
            if wallet.granted(&Grant::Gems(GemsGrantReason::FridayGems, reference.clone())) {
                return Ok(vec![]);
            }
            // A week's gems belong to the subscriptions earning at its grant instant.
            match earning {
                Earning::Since(since) if since <= week.starts_at => {}
                _ => return Err(DomainError::NotEarningThisWeek { subscription_id, week: week.key }),
            }
            grant_gems(wallet, amount, GemsGrantReason::FridayGems, reference)
        }
        Command::GrantRetentionGems { subscription_id, transaction_id, amount } => {
            let reference = transaction_reference(subscription_id, &transaction_id);
            grant_gems(wallet, amount, GemsGrantReason::RetentionDeal, reference)
        }
        Command::ForfeitGems { subscription_id, reason } => Ok(match wallet.gems {
            0 => vec![],
            amount => vec![WalletEvent::GemsForfeited {
                user_id,
                amount,
                reason,
                reference: subscription_id.to_string(),
                balance_after: 0,
            }],
        }),
        Command::DebitGems { idempotency_key, amount, reason, channel_pack_id, days_until_refresh_gems } => {
            let wanted = DebitWanted { asset: Asset::Gems, amount, reason: reason.as_str() };
            if already_debited(wallet, &idempotency_key, &wanted)? {
                return Ok(vec![]);
            }
            let balance_after = wallet.gems.checked_sub(amount).ok_or(DomainError::NotEnoughGems {
                balance: wallet.gems,
                needed: amount,
                days_until_refresh_gems,
            })?;
            Ok(vec![WalletEvent::GemsDebited {
                user_id,
                amount,
                reason,
                reference: idempotency_key,
                channel_pack_id: Some(channel_pack_id),
                balance_after,
            }])
        }
        Command::GrantPurchasedCredits { subscription_id, transaction_id, amount } => {
            let reference = transaction_reference(subscription_id, &transaction_id);
            let reason = CreditsGrantReason::PpvPurchase;
            if amount == 0 || wallet.granted(&Grant::Credits(reason, reference.clone())) {
                return Ok(vec![]);
            }
            let balance_after = wallet.credits.checked_add(amount).ok_or(DomainError::BalanceOverflow)?;
            Ok(vec![WalletEvent::CreditsGranted { user_id, amount, reason, reference, balance_after }])
        }
        Command::DebitCredits { idempotency_key, amount, reason } => {
            let wanted = DebitWanted { asset: Asset::Credits, amount, reason: reason.as_str() };
            if already_debited(wallet, &idempotency_key, &wanted)? {
                return Ok(vec![]);
            }
            let balance_after = wallet
                .credits
                .checked_sub(amount)
                .ok_or(DomainError::NotEnoughCredits { balance: wallet.credits, needed: amount })?;
            Ok(vec![WalletEvent::CreditsDebited { user_id, amount, reason, reference: idempotency_key, balance_after }])
        }
        Command::AcknowledgeNewGemsBalance { now } => {
            // Within a day of the last one, another acknowledgement says nothing new.
            if !wallet.may_show_gems_modal(now) {
                return Ok(vec![]);
            }
            Ok(vec![WalletEvent::NewGemsBalanceAcknowledged { user_id, at: now }])
        }
    }
}

/// Decides and answers a debit: the events to append and the receipt to give back, the same
/// receipt for the first call and every retry with its key.
///
/// # Panics
///
/// If `command` is not a debit: a caller's mistake, not a user's.
pub fn debit(wallet: &Wallet, command: Command) -> Result<(Vec<WalletEvent>, DebitReceipt), DomainError> {
    let key = match &command {
        Command::DebitGems { idempotency_key, .. } | Command::DebitCredits { idempotency_key, .. } => {
            idempotency_key.clone()
        }
        other => panic!("debit() answers debits only, not {other:?}"),
    };
    let events = decide(wallet, command)?;
    let after = events.iter().fold(wallet.clone(), evolve);
    let receipt = after.receipt(&key).cloned().expect("an accepted debit leaves its receipt");
    Ok((events, receipt))
}

struct DebitWanted {
    asset: Asset,
    amount: u64,
    reason: &'static str,
}

/// `true` if `key` already debited exactly this; an error if it debited something else.
fn already_debited(wallet: &Wallet, key: &str, wanted: &DebitWanted) -> Result<bool, DomainError> {
    if wanted.amount == 0 {
        return Err(DomainError::NothingToDebit);
    }
    match wallet.receipts.get(key) {
        None => Ok(false),
        Some(receipt)
            if receipt.asset == wanted.asset && receipt.amount == wanted.amount && receipt.reason == wanted.reason =>
        {
            Ok(true)
        }
        Some(_) => Err(DomainError::IdempotencyKeyReused { key: key.to_owned() }),
    }
}

fn grant_gems(
    wallet: &Wallet,
    amount: u64,
    reason: GemsGrantReason,
    reference: String,
) -> Result<Vec<WalletEvent>, DomainError> {
    if amount == 0 || wallet.granted(&Grant::Gems(reason, reference.clone())) {
        return Ok(vec![]);
    }
    let balance_after = wallet.gems.checked_add(amount).ok_or(DomainError::BalanceOverflow)?;
    Ok(vec![WalletEvent::GemsGranted { user_id: wallet.user_id, amount, reason, reference, balance_after }])
}
