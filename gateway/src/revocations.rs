//! Revoked sessions: the access tokens the gateway refuses although their signature and
//! expiry are good (docs/architecture.md, "The rules of the house": a revoked session is
//! refused within seconds on every brand).
//!
//! An access token carries its session id (`sid`). When a session ends (logout, logout
//! everywhere, a password change, a VIP conversion, a reused refresh token, an operator) the
//! profile service records a `SignedOut` or a `SessionsRevoked` naming the sessions, and every
//! gateway replica hears of it on a queue of its own (exclusive, deleted with the connection),
//! so each one refuses the session within the relay's and the broker's latency, well under
//! the five seconds the spec allows. A gateway that starts, or reconnects to the broker, first
//! binds its queue and then loads the owner's list of sessions revoked within an access
//! token's lifetime (`GET /internal/sessions/revoked`): whatever happens after the binding
//! arrives on the queue, whatever happened before is in the list, so no restart leaves a gap.
//!
//! A session's entry is dropped once every access token it can have had has expired: the
//! profile answers its access-token lifetime with the list (the owner's value), plus
//! [`MARGIN`] for the verifier's leeway and clock skew. The set therefore holds the sessions
//! of the last ten minutes or so, whatever the uptime.

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
    time::Duration,
};

use chrono::{DateTime, Utc};
use futures::StreamExt;
use lapin::{options::BasicConsumeOptions, types::FieldTable};
use profile_contract::{api::RevokedSessions, client::ProfileClient};
use proto_events::{profile::ProfileEvent, Envelope};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// Kept beyond the access-token lifetime: the verifier accepts an `exp` 5 s past, and the
/// gateway's and the profile's clocks may differ a little.
pub const MARGIN: chrono::Duration = chrono::Duration::seconds(60);

/// The routing keys of the events that end sessions.
pub const BINDINGS: [&str; 2] = ["profile.SignedOut", "profile.SessionsRevoked"];

/// How often entries past their tokens' lifetime are dropped.
const PRUNE_EVERY: Duration = Duration::from_secs(30);

/// The sessions whose access tokens are refused, with when each was revoked.
#[derive(Debug, Default)]
pub struct Revocations {
    sessions: RwLock<HashMap<Uuid, DateTime<Utc>>>,
    /// The owner's access-token lifetime, once its list has been loaded.
    access_ttl: RwLock<Option<chrono::Duration>>,
    loaded: watch::Sender<bool>,
}

impl Revocations {
    pub fn new() -> Arc<Self> {
        Arc::new(Revocations::default())
    }

    /// Refuses `session_id`'s tokens from now on (revoked at `revoked_at`).
    pub fn revoke(&self, session_id: Uuid, revoked_at: DateTime<Utc>) {
        let mut sessions = self.sessions.write().expect("revocations lock");
        let at = sessions.entry(session_id).or_insert(revoked_at);
        *at = (*at).min(revoked_at);
    }

    /// Whether a token of `session_id` is to be refused at `now`.
    pub fn is_revoked(&self, session_id: Uuid, now: DateTime<Utc>) -> bool {
        let Some(revoked_at) = self.sessions.read().expect("revocations lock").get(&session_id).copied() else {
            return false;
        };
        match self.lifetime() {
            Some(lifetime) => now < revoked_at + lifetime,
            // Before the owner said how long tokens live, nothing is forgotten.
            None => true,
        }
    }

    /// How long after its revocation a session's entry is kept.
    fn lifetime(&self) -> Option<chrono::Duration> {
        self.access_ttl.read().expect("revocations lock").map(|ttl| ttl + MARGIN)
    }

    /// Drops the sessions none of whose tokens can be alive at `now`; answers how many are left.
    pub fn prune(&self, now: DateTime<Utc>) -> usize {
        let lifetime = self.lifetime();
        let mut sessions = self.sessions.write().expect("revocations lock");
        if let Some(lifetime) = lifetime {
            sessions.retain(|_, revoked_at| now < *revoked_at + lifetime);
        }
        sessions.len()
    }

    pub fn len(&self) -> usize {
        self.sessions.read().expect("revocations lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds the owner's list of recently revoked sessions and takes its token lifetime.
    pub fn load(&self, list: &RevokedSessions) {
        *self.access_ttl.write().expect("revocations lock") =
            Some(chrono::Duration::seconds(list.access_token_ttl_secs.min(i64::MAX as u64) as i64));
        for session in &list.sessions {
            self.revoke(session.session_id, session.revoked_at);
        }
        self.loaded.send_replace(true);
    }

    /// Whether the owner's list has been loaded at least once.
    pub fn is_loaded(&self) -> bool {
        *self.loaded.borrow()
    }

    /// Waits until the owner's list has been loaded, at most `timeout`; answers whether it was.
    pub async fn wait_loaded(&self, timeout: Duration) -> bool {
        let mut loaded = self.loaded.subscribe();
        tokio::time::timeout(timeout, loaded.wait_for(|l| *l)).await.is_ok_and(|r| r.is_ok())
    }

    /// Applies one of the profile's events; any other event changes nothing.
    pub fn apply(&self, envelope: &Envelope) {
        match proto_events::decode::<ProfileEvent>(envelope) {
            Ok(ProfileEvent::SignedOut { session_id, signed_out_at, .. }) => self.revoke(session_id, signed_out_at),
            Ok(ProfileEvent::SessionsRevoked { session_ids, revoked_at, .. }) => {
                for session_id in session_ids {
                    self.revoke(session_id, revoked_at);
                }
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, event_type = %envelope.event_type, "a session event not understood"),
        }
    }
}

/// Where the session events come from.
#[derive(Clone, Debug)]
pub struct Source {
    pub amqp_url: String,
    pub exchange: String,
}

impl Source {
    pub fn from_settings(settings: &runtime::Settings) -> Self {
        Source { amqp_url: settings.amqp_url.expose().to_owned(), exchange: settings.exchange.clone() }
    }
}

/// Keeps `revocations` current until `cancel` fires: binds a queue of this process to the
/// session events, loads the owner's list, then applies each event as it comes; reconnects
/// (binding and loading again) whenever the broker goes away.
pub async fn follow(revocations: Arc<Revocations>, profile: ProfileClient, source: Source, cancel: CancellationToken) {
    let mut failures = 0u32;
    while !cancel.is_cancelled() {
        match follow_once(&revocations, &profile, &source, &cancel, &mut failures).await {
            Ok(()) => break,
            Err(error) => {
                tracing::warn!(error = %format!("{error:#}"), "session events: reconnecting");
                let delay = runtime::broker::reconnect_delay(failures);
                failures = failures.saturating_add(1);
                tokio::select! {
                    _ = cancel.cancelled() => break,
                    _ = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
}

async fn follow_once(
    revocations: &Revocations,
    profile: &ProfileClient,
    source: &Source,
    cancel: &CancellationToken,
    failures: &mut u32,
) -> anyhow::Result<()> {
    let connection = runtime::broker::connect(&source.amqp_url, "gateway.sessions").await?;
    let channel = connection.create_channel().await?;
    // A queue of this process alone: every replica hears every event.
    let queue = runtime::broker::own_queue(&channel, &source.exchange, &BINDINGS).await?;
    // Bound first, loaded second: nothing falls between the list and the queue.
    let list = tokio::select! {
        _ = cancel.cancelled() => return Ok(()),
        list = profile.revoked_sessions() => list?,
    };
    revocations.load(&list);
    *failures = 0;
    tracing::info!(revoked = list.sessions.len(), "session events followed");
    let mut deliveries = channel
        .basic_consume(
            queue.name().clone(),
            format!("gateway-{}", Uuid::now_v7()).as_str().into(),
            BasicConsumeOptions { no_ack: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?;
    let mut prune = tokio::time::interval(PRUNE_EVERY);
    loop {
        tokio::select! {
            _ = cancel.cancelled() => {
                let _ = connection.close(200, "shutdown".into()).await;
                return Ok(());
            }
            _ = prune.tick() => {
                revocations.prune(Utc::now());
            }
            next = deliveries.next() => match next {
                Some(Ok(delivery)) => match serde_json::from_slice::<Envelope>(&delivery.data) {
                    Ok(envelope) => revocations.apply(&envelope),
                    Err(error) => tracing::warn!(%error, "a session event that is no envelope"),
                },
                Some(Err(error)) => return Err(error.into()),
                None => anyhow::bail!("the broker cancelled the consumer"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use profile_contract::api::RevokedSession;
    use proto_events::{
        profile::{SessionsRevokedReason, SignOutReason},
        Actor,
    };

    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::seconds(secs)
    }

    fn loaded(ttl: u64, sessions: &[(Uuid, DateTime<Utc>)]) -> Arc<Revocations> {
        let set = Revocations::new();
        set.load(&RevokedSessions {
            access_token_ttl_secs: ttl,
            sessions: sessions
                .iter()
                .map(|(session_id, revoked_at)| RevokedSession { session_id: *session_id, revoked_at: *revoked_at })
                .collect(),
        });
        set
    }

    fn envelope(event: &ProfileEvent) -> Envelope {
        let encoded = proto_events::encode(event);
        Envelope {
            event_id: Uuid::now_v7(),
            stream_id: format!("user-{}", event.user_id()),
            stream_version: 1,
            event_type: encoded.event_type,
            schema_version: encoded.schema_version,
            occurred_at: at(0),
            tenant: Some("vixen".into()),
            correlation_id: Uuid::now_v7(),
            causation_id: None,
            actor: Actor::System("test".into()),
            payload: encoded.payload,
        }
    }

    #[test]
    fn a_revoked_session_is_refused_until_its_tokens_have_expired() {
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        let set = loaded(600, &[(a, at(0))]);
        assert!(set.is_revoked(a, at(1)));
        assert!(set.is_revoked(a, at(600)), "a token issued just before the revocation still lives");
        assert!(set.is_revoked(a, at(600 + MARGIN.num_seconds() - 1)));
        assert!(!set.is_revoked(a, at(600 + MARGIN.num_seconds())), "every token of it has expired");
        assert!(!set.is_revoked(b, at(1)), "another session is not touched");
    }

    #[test]
    fn pruning_drops_only_the_sessions_without_a_live_token() {
        let (old, recent) = (Uuid::now_v7(), Uuid::now_v7());
        let set = loaded(600, &[(old, at(0)), (recent, at(500))]);
        assert_eq!(set.prune(at(600 + MARGIN.num_seconds())), 1);
        assert!(set.is_revoked(recent, at(600 + MARGIN.num_seconds())));
        assert!(!set.is_revoked(old, at(1)), "dropped");
        assert_eq!(set.prune(at(10_000)), 0);
        assert!(set.is_empty());
    }

    #[test]
    fn before_the_owner_is_heard_nothing_is_forgotten() {
        let set = Revocations::new();
        let a = Uuid::now_v7();
        set.revoke(a, at(0));
        assert!(set.is_revoked(a, at(1_000_000)));
        assert_eq!(set.prune(at(1_000_000)), 1);
        assert!(!set.is_loaded());
        set.load(&RevokedSessions { access_token_ttl_secs: 600, sessions: vec![] });
        assert!(set.is_loaded());
        assert!(!set.is_revoked(a, at(1_000_000)));
    }

    #[test]
    fn the_earliest_revocation_of_a_session_counts() {
        let a = Uuid::now_v7();
        let set = loaded(600, &[]);
        set.revoke(a, at(100));
        set.revoke(a, at(0));
        set.revoke(a, at(300));
        assert!(!set.is_revoked(a, at(600 + MARGIN.num_seconds())));
    }

    #[test]
    fn session_events_revoke_the_sessions_they_name() {
        let user_id = Uuid::now_v7();
        let (one, two, three, kept) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        let set = loaded(600, &[]);
        set.apply(&envelope(&ProfileEvent::SignedOut {
            user_id,
            session_id: one,
            reason: SignOutReason::Logout,
            signed_out_at: at(0),
        }));
        set.apply(&envelope(&ProfileEvent::SessionsRevoked {
            user_id,
            reason: SessionsRevokedReason::PasswordChanged,
            kept_session_id: Some(kept),
            revoked_at: at(0),
            session_ids: vec![two, three],
        }));
        set.apply(&envelope(&ProfileEvent::AutoplaySet { user_id, autoplay_enabled: false, set_at: at(0) }));
        for s in [one, two, three] {
            assert!(set.is_revoked(s, at(1)), "{s}");
        }
        assert!(!set.is_revoked(kept, at(1)), "the session that changed the password stays");
        assert_eq!(set.len(), 3);
    }

    #[tokio::test]
    async fn waiting_for_the_list_ends_when_it_is_loaded() {
        let set = Revocations::new();
        assert!(!set.wait_loaded(Duration::from_millis(20)).await);
        let waiter = {
            let set = set.clone();
            tokio::spawn(async move { set.wait_loaded(Duration::from_secs(5)).await })
        };
        set.load(&RevokedSessions { access_token_ttl_secs: 600, sessions: vec![] });
        assert!(waiter.await.unwrap());
    }
}
