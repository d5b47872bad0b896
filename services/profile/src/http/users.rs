//! Users as services and operators see them: summaries, public profiles, groups and special
//! attributes.

use axum::{
    extract::{rejection::JsonRejection, Path, Query, State},
    Json,
};
use chrono::Utc;
use proto_events::profile::{Group, SpecialAttributes};
use proto_events::{Actor, EventMeta};
use runtime::auth::Admin;
use serde::Deserialize;
use uuid::Uuid;

use super::{body, Answer};
use crate::api::*;
use crate::commands;
use crate::domain::Command;
use crate::error::ApiError;
use crate::{queries, State as ProfileState};

#[derive(Deserialize)]
pub(super) struct UsersQuery {
    /// Comma-separated user ids.
    ids: String,
}

impl UsersQuery {
    /// The ids, each once; a malformed one, or more than `max`, is a bad request.
    fn ids(&self, max: usize) -> Result<Vec<Uuid>, ApiError> {
        let ids: Result<Vec<Uuid>, _> =
            self.ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(Uuid::parse_str).collect();
        let mut ids = ids.map_err(|e| ApiError::BadRequest(format!("ids: {e}")))?;
        ids.sort_unstable();
        ids.dedup();
        if ids.len() > max {
            return Err(ApiError::BadRequest(format!("at most {max} ids")));
        }
        Ok(ids)
    }
}

/// `GET /internal/users?ids=a,b,c`: who many users are, in one call (at most 500 ids).
pub(super) async fn users(
    State(state): State<ProfileState>,
    Query(query): Query<UsersQuery>,
) -> Answer<Vec<UserSummary>> {
    Ok(Json(queries::user_summaries(&state.pool, &query.ids(500)?).await?))
}

/// The most users `GET /internal/users/public` answers in one call.
pub use crate::api::MAX_PUBLIC_PROFILES;

/// `GET /internal/users/public?ids=a,b,c`: many users' badges and user type in one call (the
/// authors of a page of comments), at most [`MAX_PUBLIC_PROFILES`]; unknown ids are left out.
pub(super) async fn public_profiles(
    State(state): State<ProfileState>,
    Query(query): Query<UsersQuery>,
) -> Answer<Vec<PublicProfile>> {
    let ids = query.ids(MAX_PUBLIC_PROFILES)?;
    Ok(Json(queries::public_profiles(&state.pool, &state.config, &ids, Utc::now()).await?))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct GroupRequest {
    group: String,
    granted: bool,
}

/// Operators only: grant or revoke a group.
pub(super) async fn set_group(
    State(state): State<ProfileState>,
    Admin(admin): Admin,
    Path(user_id): Path<Uuid>,
    request: Result<Json<GroupRequest>, JsonRejection>,
) -> Answer<UserSummary> {
    let request = body(request)?;
    let group = Group::from_name(&request.group).ok_or_else(|| ApiError::BadRequest("unknown group".into()))?;
    let at = Utc::now();
    let command = if request.granted { Command::GrantGroup { group, at } } else { Command::RevokeGroup { group, at } };
    let meta = EventMeta::new(Actor::Admin(admin.sub));
    commands::execute(&state.store, user_id, &meta, command, None).await?;
    queries::user_summaries(&state.pool, &[user_id]).await?.pop().map(Json).ok_or(ApiError::NotFound("no such user"))
}

/// Operators only: replace the special attributes.
pub(super) async fn set_special_attributes(
    State(state): State<ProfileState>,
    Admin(admin): Admin,
    Path(user_id): Path<Uuid>,
    request: Result<Json<SpecialAttributesView>, JsonRejection>,
) -> Answer<UserSummary> {
    let a = body(request)?;
    let attributes = SpecialAttributes {
        is_pornstar_user: a.is_pornstar_user,
        model_id: a.model_id,
        is_king_user: a.is_king_user,
        is_director_user: a.is_director_user,
        is_vip_user: a.is_vip_user,
        is_official_user: a.is_official_user,
    };
    let meta = EventMeta::new(Actor::Admin(admin.sub));
    commands::execute(&state.store, user_id, &meta, Command::SetSpecialAttributes { attributes, at: Utc::now() }, None)
        .await?;
    queries::user_summaries(&state.pool, &[user_id]).await?.pop().map(Json).ok_or(ApiError::NotFound("no such user"))
}
