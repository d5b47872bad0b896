//! The Ed25519 key that signs access tokens.
//!
//! From `PROFILE_SIGNING_KEY` when set (every replica then shares it through the secret);
//! otherwise generated once and kept in the `signing_key` table, so restarts and replicas
//! sign with the same key. The first writer wins a race; the others read its key.

use runtime::auth::Signer;
use sqlx::PgPool;

use crate::config::{seed_from_base64, ProfileConfig};

/// The key id of a generated key.
pub const GENERATED_KID: &str = "profile-1";
/// The key id of a key from the environment.
pub const CONFIGURED_KID: &str = "profile-env";

pub async fn load_signer(pool: &PgPool, config: &ProfileConfig) -> anyhow::Result<Signer> {
    if let Some(key) = &config.signing_key {
        return Ok(Signer::from_seed(CONFIGURED_KID, seed_from_base64(key.expose())?));
    }
    let seed: [u8; 32] = rand::random();
    sqlx::query("insert into signing_key (kid, seed) values ($1, $2) on conflict (kid) do nothing")
        .bind(GENERATED_KID)
        .bind(&seed[..])
        .execute(pool)
        .await?;
    let stored: Vec<u8> =
        sqlx::query_scalar("select seed from signing_key where kid = $1").bind(GENERATED_KID).fetch_one(pool).await?;
    let seed: [u8; 32] = stored.try_into().map_err(|_| anyhow::anyhow!("stored signing key is not 32 bytes"))?;
    Ok(Signer::from_seed(GENERATED_KID, seed))
}
