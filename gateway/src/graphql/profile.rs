//! The profile domain's queries and mutations: findOneUserProfile and the profile
//! settings. Every operation acts for the signed-in user (the access token forwarded to the
//! services decides who); none takes a user id. findOneUserProfile is put together from the
//! owners of its facts ([`crate::user_profile`]); a settings change answers the profile
//! service's part after the change, with the other owners' parts asked at once.

use async_graphql::{Context, Object};
use chrono::{DateTime, Utc};
use profile_contract::api::{ChangePasswordRequest, EmailConsentRequest, OwnProfile, TandemChildRequest};
use runtime::client::UpstreamError;

use super::{
    context::{limit, request, upstreams},
    errors,
    limits::Bucket,
};
use crate::user_profile::{self, UserProfile};

#[derive(Default)]
pub struct ProfileQuery;

#[derive(Default)]
pub struct ProfileMutation;

/// The signed-in user's profile, asked of its owners once per operation (the abilities and
/// every resolver share it); UNAUTHENTICATED for a visitor.
pub async fn of<'a>(ctx: &'a Context<'_>) -> async_graphql::Result<&'a UserProfile> {
    let request = request(ctx);
    let viewer = request.viewer()?;
    request
        .profile
        .get_or_try_init(|| async {
            user_profile::load(upstreams(ctx), &request.call(), viewer.id()).await.map_err(errors::upstream)
        })
        .await
}

#[Object]
impl ProfileQuery {
    /// The signed-in user's whole profile (product.md, "Account and profile"), on this brand.
    async fn find_one_user_profile(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        Ok(of(ctx).await?.clone())
    }
}

/// The whole profile after a change, from the profile service's answer.
async fn changed(
    ctx: &Context<'_>,
    call: &runtime::client::CallContext,
    own: Result<OwnProfile, UpstreamError>,
) -> async_graphql::Result<UserProfile> {
    let own = own.map_err(errors::upstream)?;
    user_profile::after_change(upstreams(ctx), call, own).await.map_err(errors::upstream)
}

/// The signed-in user's call context, after counting one write against their limit.
fn writing(ctx: &Context<'_>) -> async_graphql::Result<runtime::client::CallContext> {
    let request = request(ctx);
    request.viewer()?;
    limit(ctx, Bucket::Write)?;
    Ok(request.call())
}

#[Object]
impl ProfileMutation {
    async fn set_display_name(&self, ctx: &Context<'_>, display_name: String) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.set_display_name(&call, &display_name).await).await
    }

    async fn update_user_autoplay(
        &self,
        ctx: &Context<'_>,
        autoplay_enabled: bool,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.update_user_autoplay(&call, autoplay_enabled).await).await
    }

    /// `site` defaults to this brand; the consent text shown is kept as evidence.
    async fn set_email_consent(
        &self,
        ctx: &Context<'_>,
        email_consent: bool,
        site: Option<String>,
        consent_html_snippet: Option<String>,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        let body = EmailConsentRequest { email_consent, site: site.map(|s| s.to_lowercase()), consent_html_snippet };
        changed(ctx, &call, upstreams(ctx).profile.set_email_consent(&call, &body).await).await
    }

    async fn set_relationship(
        &self,
        ctx: &Context<'_>,
        relationship_status: String,
        relationship_role: String,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(
            ctx,
            &call,
            upstreams(ctx).profile.set_relationship(&call, &relationship_status, &relationship_role).await,
        )
        .await
    }

    async fn acknowledge_gems_intro(
        &self,
        ctx: &Context<'_>,
        when: DateTime<Utc>,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.acknowledge_gems_intro(&call, when).await).await
    }

    async fn acknowledge_promotional_teaser_viewed(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.acknowledge_promotional_teaser_viewed(&call).await).await
    }

    /// `TX` or `AL` (`US-TX`, `US-AL` too).
    async fn acknowledge_health_warning(
        &self,
        ctx: &Context<'_>,
        usa_health_warning_state_code: String,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(
            ctx,
            &call,
            upstreams(ctx).profile.acknowledge_health_warning(&call, &usa_health_warning_state_code).await,
        )
        .await
    }

    /// The permanent username: 'invalid username', 'already taken'.
    async fn choose_username(&self, ctx: &Context<'_>, username: String) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.choose_username(&call, &username).await).await
    }

    /// Ends the user's other sessions; this one stays.
    async fn change_password(
        &self,
        ctx: &Context<'_>,
        old_password: String,
        new_password: String,
        confirm_password: String,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        let body = ChangePasswordRequest { old_password, new_password, confirm_password };
        changed(ctx, &call, upstreams(ctx).profile.change_password(&call, &body).await).await
    }

    async fn create_tandem_child_account(
        &self,
        ctx: &Context<'_>,
        email: String,
        password: String,
        username: Option<String>,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        let body = TandemChildRequest { email, password, username };
        changed(ctx, &call, upstreams(ctx).profile.create_tandem_child_account(&call, &body).await).await
    }

    async fn give_terms_consent(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.give_terms_consent(&call).await).await
    }

    async fn give_cams_consent(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        changed(ctx, &call, upstreams(ctx).profile.give_cams_consent(&call).await).await
    }
}
