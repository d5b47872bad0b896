//! A user's unlocks as a decider: channel packs, single videos and downloads, on one stream
//! (`unlocks-<user>`).
//!
//! An unlock paid from the wallet runs in three steps: `UnlockRequested` (the intent, with the
//! unlock id that is the debit's idempotency key), the wallet's debit, then
//! `ChannelPackUnlocked`/`VideoUnlocked` or `UnlockRefused`. A second request for a target
//! already pending joins the pending unlock (same id, so the wallet debits once).
//!
//! The clock, the prices, the entitlement verdicts and the quota rule are looked up by the
//! caller and put in the command.
//!
//! [`command`] says what may be asked and what a refusal is, [`state`] what deciding needs of
//! the history and how events change it, [`decide`] how a command is answered, and
//! [`process`] runs an unlock's steps around them (the owners' facts, the wallet's debit).

mod command;
mod decide;
pub mod process;
mod state;

pub use command::*;
pub use decide::*;
pub use state::*;

use proto_events::unlocks::UnlockEvent;
use uuid::Uuid;

/// The unlocks stream as a plain decider, folded whole (what restored snapshots must agree with).
pub struct UnlocksStream;

impl runtime::Decider for UnlocksStream {
    type Event = UnlockEvent;
    type State = Unlocks;
    type Command = (Uuid, Command);
    type Error = DomainError;

    fn decide(state: &Unlocks, (user_id, command): (Uuid, Command)) -> Result<Vec<UnlockEvent>, DomainError> {
        decide(state, user_id, command)
    }

    fn evolve(state: Unlocks, event: &UnlockEvent) -> Unlocks {
        evolve(state, event)
    }
}

#[cfg(test)]
mod tests;
