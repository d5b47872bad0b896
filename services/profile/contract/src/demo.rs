//! The demo users' identities: one per kind of user, all with the password `Demo12345`, each
//! with a stable id derived from its username so other services' seeds can refer to it. The
//! profile service creates the accounts (its `seed`); the subscription service gives them
//! their memberships.

use proto_events::profile::Group;
use sha2::{Digest, Sha256};
use uuid::Uuid;

pub const DEMO_PASSWORD: &str = "Demo12345";

/// One demo user.
#[derive(Clone, Copy, Debug)]
pub struct DemoUser {
    /// The kind of user it shows (the names).
    pub kind: &'static str,
    pub username: &'static str,
    pub email: &'static str,
    /// The brand the account was made on.
    pub site: &'static str,
    pub groups: &'static [Group],
    /// A tandem child's parent (by username).
    pub tandem_parent: Option<&'static str>,
    /// An invited VIP user, not yet converted.
    pub vip_invited: bool,
    /// What the subscription service's seed gives it.
    pub membership: &'static str,
    /// Made without a username: it signs in with its e-mail and chooses one (the username
    /// selection screen); `username` is then only the key of its stable id.
    pub chooses_username: bool,
}

impl DemoUser {
    /// What it types into the login form.
    pub const fn login(&self) -> &'static str {
        if self.chooses_username {
            self.email
        } else {
            self.username
        }
    }
}

const fn user(kind: &'static str, username: &'static str, email: &'static str, membership: &'static str) -> DemoUser {
    DemoUser {
        kind,
        username,
        email,
        site: "vixen",
        groups: &[],
        tandem_parent: None,
        vip_invited: false,
        membership,
        chooses_username: false,
    }
}

pub const DEMO_USERS: [DemoUser; 17] = [
    user("member", "member", "member@paysite.test", "active single-site member of vixen"),
    user("multisite", "multisite", "multisite@paysite.test", "active multisite package (multisite2025)"),
    user("trial", "trial", "trial@paysite.test", "active trial on vixen"),
    user("freetrial", "freetrial", "freetrial@paysite.test", "active free limited trial on vixen"),
    user("ppv", "ppv", "ppv@paysite.test", "porn-portal with pay-per-video credits"),
    user("expired", "expired", "expired@paysite.test", "vixen membership that expired"),
    user("cancelled", "cancelled", "cancelled@paysite.test", "cancelled vixen membership, biller RGNATIVE"),
    user("tandem-parent", "tandemparent", "tandemparent@paysite.test", "active vixen member with a tandem child"),
    DemoUser {
        tandem_parent: Some("tandemparent"),
        ..user("tandem-child", "tandemchild", "tandemchild@paysite.test", "shares tandemparent's membership")
    },
    DemoUser {
        groups: &[Group::CommentEditor],
        ..user("moderator", "moderator", "moderator@paysite.test", "active vixen member")
    },
    DemoUser { groups: &[Group::Admin], ..user("admin", "admin", "admin@paysite.test", "none needed") },
    DemoUser {
        groups: &[Group::VideoPreview],
        ..user("preview", "preview", "preview@paysite.test", "active vixen member")
    },
    user("texas", "texas", "texas@paysite.test", "active vixen member browsing from US-TX"),
    DemoUser {
        vip_invited: true,
        ..user("vip", "vip", "vip@vip.paysite.test", "active vixen member, invited VIP not yet converted")
    },
    // Keep these two out of other journeys: each shows something that happens once.
    user("teaser", "teaser", "teaser@paysite.test", "active vixen member who has not seen the promotional teaser"),
    DemoUser {
        chooses_username: true,
        ..user("newcomer", "newcomer", "newcomer@paysite.test", "active vixen member without a username yet")
    },
    // A porn-portal guest, asked for e-mail consent (18+, terms, privacy and e-mail marketing) until
    // they answer: its address is not on an internal test domain, which is never asked.
    DemoUser {
        groups: &[Group::GuestUser],
        ..user("guest", "guest", "guest@guests.example.com", "porn-portal guest, not yet asked for e-mail consent")
    },
];

/// The stable id of a demo user: a v8 UUID of the SHA-256 of its username.
pub fn demo_user_id(username: &str) -> Uuid {
    let digest = Sha256::digest(format!("paysite-demo-user:{username}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_custom_bytes(bytes).into_uuid()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_ids_are_stable_and_distinct() {
        assert_eq!(demo_user_id("member"), demo_user_id("member"));
        let mut ids: Vec<Uuid> = DEMO_USERS.iter().map(|u| demo_user_id(u.username)).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), DEMO_USERS.len());
        assert_eq!(demo_user_id("member").get_version_num(), 8);
    }

    #[test]
    fn demo_users_follow_the_rules() {
        for u in DEMO_USERS {
            assert!(crate::validation::is_valid_username(u.username), "{}", u.username);
            assert!(crate::validation::is_valid_email(u.email), "{}", u.email);
        }
        assert!(crate::validation::is_valid_password(DEMO_PASSWORD));
    }
}
