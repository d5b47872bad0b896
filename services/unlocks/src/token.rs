//! Media tokens: short-lived, HMAC-SHA256-signed grants to fetch one quality of one video,
//! bound to the user they were issued to.
//!
//! A token is `<payload>.<mac>`, both base64url: the payload is
//! `v2:<user>:<video>:<quality>:<purpose>:<issued>:<expires>:<ground>` (unix seconds). The
//! media endpoint checks the MAC (in constant time), the expiry, that the path's video and
//! quality are the token's, that the request comes from the token's user, and that what
//! opened the video (the [`Ground`]: the subscriptions covering its site, or its channel pack)
//! was not taken away since `issued`. Entitlement itself was decided when the token was issued.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use hmac::{Hmac, KeyInit, Mac};
use proto_events::catalog::VideoQuality;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use uuid::Uuid;

use crate::quota;

type HmacSha256 = Hmac<Sha256>;

/// What a token lets its holder do with the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Stream in the player (inline).
    Play,
    /// Save the file (attachment); issued against the download quota.
    Download,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Play => "play",
            Purpose::Download => "download",
        }
    }
}

/// What opened the video when the token was issued; its end voids the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ground {
    /// The subscriptions (the user's or a tandem parent's) covering the video's site, or the
    /// free limited trial whose video it is: void once any of them ends.
    Subscriptions(Vec<Uuid>),
    /// The unlocked channel pack: void once forfeited.
    ChannelPack(Uuid),
    /// Bought with credits, for good.
    Credits,
}

impl Ground {
    fn encode(&self) -> String {
        match self {
            Ground::Subscriptions(ids) => {
                format!("s{}", ids.iter().map(Uuid::to_string).collect::<Vec<_>>().join(","))
            }
            Ground::ChannelPack(id) => format!("p{id}"),
            Ground::Credits => "c".into(),
        }
    }

    fn decode(text: &str) -> Option<Ground> {
        if text == "c" {
            return Some(Ground::Credits);
        }
        if let Some(id) = text.strip_prefix('p') {
            return id.parse().ok().map(Ground::ChannelPack);
        }
        let ids = text.strip_prefix('s')?;
        if ids.is_empty() {
            return Some(Ground::Subscriptions(Vec::new()));
        }
        ids.split(',').map(|i| i.parse().ok()).collect::<Option<Vec<Uuid>>>().map(Ground::Subscriptions)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaGrant {
    pub user_id: Uuid,
    pub video_id: Uuid,
    pub quality: VideoQuality,
    pub purpose: Purpose,
    /// Unix seconds.
    pub issued: i64,
    /// Unix seconds.
    pub expires: i64,
    pub ground: Ground,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("malformed token")]
    Malformed,
    #[error("bad signature")]
    BadSignature,
    #[error("expired token")]
    Expired,
    #[error("the token is for another file")]
    OtherFile,
}

pub use crate::api::token_holder as holder;

/// Signs and checks media tokens with one secret.
#[derive(Clone)]
pub struct TokenSigner {
    key: Vec<u8>,
}

impl std::fmt::Debug for TokenSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenSigner(****)")
    }
}

impl TokenSigner {
    pub fn new(secret: &[u8]) -> Self {
        TokenSigner { key: secret.to_vec() }
    }

    fn mac(&self) -> HmacSha256 {
        <HmacSha256 as KeyInit>::new_from_slice(&self.key).expect("HMAC takes a key of any length")
    }

    pub fn sign(&self, grant: &MediaGrant) -> String {
        let payload = format!(
            "v2:{}:{}:{}:{}:{}:{}:{}",
            grant.user_id,
            grant.video_id,
            quota::spec_of(grant.quality).key,
            grant.purpose.as_str(),
            grant.issued,
            grant.expires,
            grant.ground.encode()
        );
        let mut mac = self.mac();
        mac.update(payload.as_bytes());
        let tag = mac.finalize().into_bytes();
        format!("{}.{}", URL_SAFE_NO_PAD.encode(payload), URL_SAFE_NO_PAD.encode(tag))
    }

    /// The grant a token carries, if its signature holds and it has not expired at `now`.
    pub fn verify(&self, token: &str, now: i64) -> Result<MediaGrant, TokenError> {
        let (payload, tag) = token.split_once('.').ok_or(TokenError::Malformed)?;
        let payload = URL_SAFE_NO_PAD.decode(payload).map_err(|_| TokenError::Malformed)?;
        let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| TokenError::Malformed)?;
        let mut mac = self.mac();
        mac.update(&payload);
        mac.verify_slice(&tag).map_err(|_| TokenError::BadSignature)?;
        let payload = String::from_utf8(payload).map_err(|_| TokenError::Malformed)?;
        let parts: Vec<&str> = payload.split(':').collect();
        let [version, user, video, quality, purpose, issued, expires, ground] = parts[..] else {
            return Err(TokenError::Malformed);
        };
        if version != "v2" {
            return Err(TokenError::Malformed);
        }
        let grant = MediaGrant {
            user_id: user.parse().map_err(|_| TokenError::Malformed)?,
            video_id: video.parse().map_err(|_| TokenError::Malformed)?,
            quality: quota::quality_from_key(quality).ok_or(TokenError::Malformed)?,
            purpose: match purpose {
                "play" => Purpose::Play,
                "download" => Purpose::Download,
                _ => return Err(TokenError::Malformed),
            },
            issued: issued.parse().map_err(|_| TokenError::Malformed)?,
            expires: expires.parse().map_err(|_| TokenError::Malformed)?,
            ground: Ground::decode(ground).ok_or(TokenError::Malformed)?,
        };
        if grant.expires <= now {
            return Err(TokenError::Expired);
        }
        Ok(grant)
    }

    /// Checks `token` for the file at `video`/`quality`.
    pub fn verify_for(
        &self,
        token: &str,
        video_id: Uuid,
        quality: VideoQuality,
        now: i64,
    ) -> Result<MediaGrant, TokenError> {
        let grant = self.verify(token, now)?;
        if grant.video_id != video_id || grant.quality != quality {
            return Err(TokenError::OtherFile);
        }
        Ok(grant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn grant() -> MediaGrant {
        MediaGrant {
            user_id: Uuid::from_u128(1),
            video_id: Uuid::from_u128(2),
            quality: VideoQuality::P1080,
            purpose: Purpose::Play,
            issued: 1_000,
            expires: 2_000,
            ground: Ground::Subscriptions(vec![Uuid::from_u128(4), Uuid::from_u128(5)]),
        }
    }

    #[test]
    fn the_holder_is_read_from_the_token_and_nothing_else_is() {
        let s = TokenSigner::new(b"secret");
        assert_eq!(holder(&s.sign(&grant())), Some(Uuid::from_u128(1)));
        assert_eq!(holder("nonsense"), None);
        assert_eq!(holder(&format!("{}.x", URL_SAFE_NO_PAD.encode("v1:x"))), None);
    }

    #[test]
    fn every_ground_round_trips() {
        let s = TokenSigner::new(b"secret");
        for ground in [
            Ground::Subscriptions(vec![]),
            Ground::Subscriptions(vec![Uuid::from_u128(8)]),
            Ground::ChannelPack(Uuid::from_u128(6)),
            Ground::Credits,
        ] {
            let g = MediaGrant { ground: ground.clone(), ..grant() };
            assert_eq!(s.verify(&s.sign(&g), 1_500).map(|g| g.ground), Ok(ground));
        }
    }

    #[test]
    fn a_signed_token_verifies_for_its_file_until_it_expires() {
        let s = TokenSigner::new(b"secret");
        let t = s.sign(&grant());
        assert_eq!(s.verify_for(&t, Uuid::from_u128(2), VideoQuality::P1080, 1_999), Ok(grant()));
        assert_eq!(s.verify(&t, 2_000), Err(TokenError::Expired));
        assert_eq!(s.verify_for(&t, Uuid::from_u128(3), VideoQuality::P1080, 1_000), Err(TokenError::OtherFile));
        assert_eq!(s.verify_for(&t, Uuid::from_u128(2), VideoQuality::P720, 1_000), Err(TokenError::OtherFile));
    }

    #[test]
    fn another_secret_or_an_edited_payload_is_refused() {
        let s = TokenSigner::new(b"secret");
        let t = s.sign(&grant());
        assert_eq!(TokenSigner::new(b"other").verify(&t, 0), Err(TokenError::BadSignature));
        let (_, tag) = t.split_once('.').unwrap();
        let forged_payload =
            URL_SAFE_NO_PAD.encode(format!("v2:{}:{}:p1080:play:1000:99999:c", Uuid::from_u128(9), Uuid::from_u128(2)));
        assert_eq!(s.verify(&format!("{forged_payload}.{tag}"), 0), Err(TokenError::BadSignature));
        assert_eq!(s.verify("nonsense", 0), Err(TokenError::Malformed));
    }

    proptest! {
        #[test]
        fn flipping_any_character_breaks_the_token(i in 0usize..200, c in proptest::char::range('0', 'z')) {
            let s = TokenSigner::new(b"secret");
            let t = s.sign(&grant());
            let i = i % t.len();
            let mut bytes = t.clone().into_bytes();
            prop_assume!(bytes[i] != c as u8);
            bytes[i] = c as u8;
            let edited = String::from_utf8(bytes).unwrap();
            prop_assert!(s.verify(&edited, 0).is_err());
        }
    }
}
