//! The profile domain's queries and mutations (issue 3): findOneUserProfile and the profile
//! settings. Every operation acts for the signed-in user (the access token forwarded to the
//! profile service decides who); none takes a user id. The answers are the profile service's
//! own types (`profile::api`), so a field added there is a field here.

use async_graphql::{Context, Object};
use chrono::{DateTime, Utc};
use profile::api::{ChangePasswordRequest, EmailConsentRequest, TandemChildRequest, UserProfile};

use super::{
    context::{limit, request, upstreams},
    errors,
    limits::Bucket,
};

#[derive(Default)]
pub struct ProfileQuery;

#[derive(Default)]
pub struct ProfileMutation;

#[Object]
impl ProfileQuery {
    /// The signed-in user's whole profile (account-payments-gems.md §3), on this brand.
    async fn find_one_user_profile(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let request = request(ctx);
        request.viewer()?;
        upstreams(ctx).profile.find_one_user_profile(&request.call()).await.map_err(errors::upstream)
    }
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
        upstreams(ctx).profile.set_display_name(&call, &display_name).await.map_err(errors::upstream)
    }

    async fn update_user_autoplay(
        &self,
        ctx: &Context<'_>,
        autoplay_enabled: bool,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx).profile.update_user_autoplay(&call, autoplay_enabled).await.map_err(errors::upstream)
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
        upstreams(ctx).profile.set_email_consent(&call, &body).await.map_err(errors::upstream)
    }

    async fn set_relationship(
        &self,
        ctx: &Context<'_>,
        relationship_status: String,
        relationship_role: String,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx)
            .profile
            .set_relationship(&call, &relationship_status, &relationship_role)
            .await
            .map_err(errors::upstream)
    }

    async fn acknowledge_gems_intro(
        &self,
        ctx: &Context<'_>,
        when: DateTime<Utc>,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx).profile.acknowledge_gems_intro(&call, when).await.map_err(errors::upstream)
    }

    async fn acknowledge_promotional_teaser_viewed(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx).profile.acknowledge_promotional_teaser_viewed(&call).await.map_err(errors::upstream)
    }

    /// `TX` or `AL` (`US-TX`, `US-AL` too).
    async fn acknowledge_health_warning(
        &self,
        ctx: &Context<'_>,
        usa_health_warning_state_code: String,
    ) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx)
            .profile
            .acknowledge_health_warning(&call, &usa_health_warning_state_code)
            .await
            .map_err(errors::upstream)
    }

    /// The permanent username: 'invalid username', 'already taken'.
    async fn choose_username(&self, ctx: &Context<'_>, username: String) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx).profile.choose_username(&call, &username).await.map_err(errors::upstream)
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
        upstreams(ctx).profile.change_password(&call, &body).await.map_err(errors::upstream)
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
        upstreams(ctx).profile.create_tandem_child_account(&call, &body).await.map_err(errors::upstream)
    }

    async fn give_terms_consent(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx).profile.give_terms_consent(&call).await.map_err(errors::upstream)
    }

    async fn give_cams_consent(&self, ctx: &Context<'_>) -> async_graphql::Result<UserProfile> {
        let call = writing(ctx)?;
        upstreams(ctx).profile.give_cams_consent(&call).await.map_err(errors::upstream)
    }
}
