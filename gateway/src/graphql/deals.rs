//! Deals and offers: findDeals, the offers page and its interstitial, the deal
//! carousel events, the /deals confirmation payload, and the operators' deal management.

use async_graphql::{Context, Enum, InputObject, Object, SimpleObject, ID};
use chrono::{DateTime, Utc};
use deals_contract::api::{self as wire, FindDealsQuery, InterstitialAnswer};
use proto_events::deals::{DealCarouselStep, DealType as WireDealType};
use uuid::Uuid;

use access::abilities::{action, subject};

use super::{
    abilities,
    context::{limit, request, upstreams},
    errors,
    limits::Bucket,
};

#[derive(Default)]
pub struct DealsQuery;

#[derive(Default)]
pub struct DealsMutation;

/// Where a deal shows; each type has its own enabled flag and rank.
#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "lowercase")]
pub enum DealType {
    Carousel,
    Interstitial,
    Listing,
}

impl From<DealType> for WireDealType {
    fn from(t: DealType) -> Self {
        match t {
            DealType::Carousel => WireDealType::Carousel,
            DealType::Interstitial => WireDealType::Interstitial,
            DealType::Listing => WireDealType::Listing,
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
#[graphql(rename_items = "lowercase")]
pub enum DealCarouselEventStep {
    Requested,
    Success,
    Failed,
}

#[derive(SimpleObject, InputObject, Clone)]
#[graphql(input_name = "DealImageInput")]
pub struct DealImage {
    pub src: String,
    pub width: u32,
    pub height: u32,
}

/// The OneClickConsent modal's props.
#[derive(SimpleObject)]
pub struct OneClickConsent {
    pub partner_name: String,
    pub price: Option<String>,
    pub one_click_url: String,
    pub src: Option<String>,
}

/// A deal (product.md, "Deals, offers and upsells").
#[derive(SimpleObject)]
pub struct Deal {
    pub id: ID,
    pub name: String,
    pub site: String,
    pub partner_name: String,
    pub deal_text: String,
    pub deal_text_listing: String,
    pub discount: Option<String>,
    pub discount_prefix: Option<String>,
    pub discount_text_post_prefix: Option<String>,
    pub discount_literal: Option<String>,
    pub exclusive: bool,
    pub url: String,
    pub one_click_url: Option<String>,
    pub internal_one_click: bool,
    pub initial_price: Option<String>,
    pub logo: Vec<DealImage>,
    pub thumbnail: Vec<DealImage>,
    pub request_partner_consent: bool,
    pub one_click_enabled: bool,
    pub its_up_zone_id: Option<String>,
    pub its_up_campaign_id: Option<String>,
    pub rank: u32,
    pub rank_listing: u32,
    pub rank_interstitial: u32,
    pub enabled: bool,
    pub enabled_list: bool,
    pub enabled_interstitial: bool,
    /// Shown only to porn-portal subscribers.
    pub special_offer: bool,
    pub one_click_consent: Option<OneClickConsent>,
}

fn image(i: wire::ImageInput) -> DealImage {
    DealImage { src: i.src, width: i.width, height: i.height }
}

impl From<wire::DealView> for Deal {
    fn from(d: wire::DealView) -> Self {
        Deal {
            id: ID(d.id.to_string()),
            name: d.name,
            site: d.site,
            partner_name: d.partner_name,
            deal_text: d.deal_text,
            deal_text_listing: d.deal_text_listing,
            discount: d.discount,
            discount_prefix: d.discount_prefix,
            discount_text_post_prefix: d.discount_text_post_prefix,
            discount_literal: d.discount_literal,
            exclusive: d.exclusive,
            url: d.url,
            one_click_url: d.one_click_url,
            internal_one_click: d.internal_one_click,
            initial_price: d.initial_price,
            logo: d.logo.into_iter().map(image).collect(),
            thumbnail: d.thumbnail.into_iter().map(image).collect(),
            request_partner_consent: d.request_partner_consent,
            one_click_enabled: d.one_click_enabled,
            its_up_zone_id: d.its_up_zone_id,
            its_up_campaign_id: d.its_up_campaign_id,
            rank: d.rank,
            rank_listing: d.rank_listing,
            rank_interstitial: d.rank_interstitial,
            enabled: d.enabled,
            enabled_list: d.enabled_list,
            enabled_interstitial: d.enabled_interstitial,
            special_offer: d.special_offer,
            one_click_consent: d.one_click_consent.map(|c| OneClickConsent {
                partner_name: c.partner_name,
                price: c.price,
                one_click_url: c.one_click_url,
                src: c.src,
            }),
        }
    }
}

#[derive(InputObject)]
pub struct FindDealsInput {
    /// Carousel at most 40, listing and interstitial at most 15 (the default is the maximum).
    pub limit: Option<i32>,
    #[graphql(name = "type")]
    pub deal_type: DealType,
    /// A brand key; the host's brand when absent.
    pub site: Option<String>,
}

/// Whether the offers interstitial is hidden for the user on a site.
#[derive(SimpleObject)]
pub struct Interstitial {
    pub site: String,
    pub snoozed: bool,
    pub snoozed_until: Option<DateTime<Utc>>,
}

impl From<wire::InterstitialView> for Interstitial {
    fn from(v: wire::InterstitialView) -> Self {
        Interstitial { site: v.site, snoozed: v.snoozed, snoozed_until: v.snoozed_until }
    }
}

/// The offers page of a brand.
#[derive(SimpleObject)]
pub struct OffersPage {
    pub site: String,
    pub offer_page_id: u32,
    pub deals: Vec<Deal>,
    pub interstitial: Option<Interstitial>,
}

/// The ConfirmOutgoingUpsell modal's props, from a /deals `confirmation` value.
#[derive(SimpleObject)]
pub struct ConfirmOutgoingUpsell {
    pub component: Option<String>,
    pub confirmation_link: String,
    pub confirmation_title: Option<String>,
    pub description: Option<String>,
    pub price: Option<String>,
}

#[derive(InputObject)]
pub struct InterstitialInput {
    /// A brand key; the host's brand when absent.
    pub site: Option<String>,
    /// The deal the interstitial was showing.
    pub deal_id: Option<ID>,
}

#[derive(InputObject)]
pub struct DealCarouselEventInput {
    pub site: Option<String>,
    pub step: DealCarouselEventStep,
    #[graphql(default)]
    pub deal_ids: Vec<ID>,
    pub reason: Option<String>,
}

#[derive(SimpleObject)]
pub struct DealCarouselEventResult {
    pub tracking_id: ID,
}

/// A deal as an operator writes it; every field of product.md, "Deals, offers and upsells". With an `id` chosen by the caller,
/// sending the same deal again creates it once.
#[derive(InputObject)]
pub struct DealInput {
    pub id: Option<ID>,
    pub name: Option<String>,
    pub site: Option<String>,
    pub partner_name: Option<String>,
    pub deal_text: Option<String>,
    pub deal_text_listing: Option<String>,
    pub discount: Option<String>,
    pub discount_prefix: Option<String>,
    pub discount_text_post_prefix: Option<String>,
    pub discount_literal: Option<String>,
    #[graphql(default)]
    pub exclusive: bool,
    pub url: Option<String>,
    pub one_click_url: Option<String>,
    #[graphql(default)]
    pub internal_one_click: bool,
    pub initial_price: Option<String>,
    #[graphql(default)]
    pub logo: Vec<DealImage>,
    #[graphql(default)]
    pub thumbnail: Vec<DealImage>,
    #[graphql(default)]
    pub request_partner_consent: bool,
    #[graphql(default)]
    pub one_click_enabled: bool,
    pub its_up_zone_id: Option<String>,
    pub its_up_campaign_id: Option<String>,
    pub rank: Option<i32>,
    pub rank_listing: Option<i32>,
    pub rank_interstitial: Option<i32>,
    #[graphql(default)]
    pub enabled: bool,
    #[graphql(default)]
    pub enabled_list: bool,
    #[graphql(default)]
    pub enabled_interstitial: bool,
    #[graphql(default)]
    pub special_offer: bool,
}

impl DealInput {
    fn into_wire(self) -> async_graphql::Result<wire::DealInput> {
        let image = |i: DealImage| wire::ImageInput { src: i.src, width: i.width, height: i.height };
        Ok(wire::DealInput {
            id: self.id.as_ref().map(uuid).transpose()?,
            name: self.name,
            site: self.site,
            partner_name: self.partner_name,
            deal_text: self.deal_text,
            deal_text_listing: self.deal_text_listing,
            discount: self.discount,
            discount_prefix: self.discount_prefix,
            discount_text_post_prefix: self.discount_text_post_prefix,
            discount_literal: self.discount_literal,
            exclusive: self.exclusive,
            url: self.url,
            one_click_url: self.one_click_url,
            internal_one_click: self.internal_one_click,
            initial_price: self.initial_price,
            logo: self.logo.into_iter().map(image).collect(),
            thumbnail: self.thumbnail.into_iter().map(image).collect(),
            request_partner_consent: self.request_partner_consent,
            one_click_enabled: self.one_click_enabled,
            its_up_zone_id: self.its_up_zone_id,
            its_up_campaign_id: self.its_up_campaign_id,
            rank: self.rank.map(i64::from),
            rank_listing: self.rank_listing.map(i64::from),
            rank_interstitial: self.rank_interstitial.map(i64::from),
            enabled: self.enabled,
            enabled_list: self.enabled_list,
            enabled_interstitial: self.enabled_interstitial,
            special_offer: self.special_offer,
        })
    }
}

fn uuid(id: &ID) -> async_graphql::Result<Uuid> {
    Uuid::parse_str(id).map_err(|_| errors::bad_input(format!("{} is not a deal id", id.as_str())))
}

/// The operator's check at the door; the deals service checks the token again.
fn admin(ctx: &Context<'_>) -> async_graphql::Result<()> {
    if request(ctx).viewer()?.claims.is_admin() {
        Ok(())
    } else {
        Err(errors::forbidden())
    }
}

fn site_or_host(ctx: &Context<'_>, site: Option<String>) -> String {
    site.filter(|s| !s.is_empty()).unwrap_or_else(|| request(ctx).tenant().to_owned())
}

#[Object]
impl DealsQuery {
    /// Deals of a type, filtered by its enabled flag and ordered by its rank; porn-portal
    /// subscribers also get the special offers.
    async fn find_deals(&self, ctx: &Context<'_>, input: FindDealsInput) -> async_graphql::Result<Vec<Deal>> {
        let query = FindDealsQuery {
            deal_type: input.deal_type.into(),
            site: site_or_host(ctx, input.site),
            limit: input.limit.map(i64::from),
        };
        let answer = upstreams(ctx).deals.find_deals(&request(ctx).call(), &query).await.map_err(errors::upstream)?;
        Ok(answer.deals.into_iter().map(Deal::from).collect())
    }

    /// The offers page: the brand's offer page id, the offers grid and the interstitial.
    async fn offers(&self, ctx: &Context<'_>, site: Option<String>) -> async_graphql::Result<OffersPage> {
        request(ctx).viewer()?;
        let site = site_or_host(ctx, site);
        let answer = upstreams(ctx).deals.offers(&request(ctx).call(), &site).await.map_err(errors::upstream)?;
        Ok(OffersPage {
            site: answer.site,
            offer_page_id: answer.offer_page_id,
            deals: answer.deals.into_iter().map(Deal::from).collect(),
            interstitial: answer.interstitial.map(Interstitial::from),
        })
    }

    /// The /deals page's `confirmation` value, checked: the ConfirmOutgoingUpsell props, or
    /// 'Outgoing upsell - Confirmation link is missing' and the other refusals.
    async fn outgoing_upsell_confirmation(
        &self,
        ctx: &Context<'_>,
        confirmation: String,
    ) -> async_graphql::Result<ConfirmOutgoingUpsell> {
        let p = upstreams(ctx)
            .deals
            .check_confirmation(&request(ctx).call(), &confirmation)
            .await
            .map_err(errors::upstream)?;
        Ok(ConfirmOutgoingUpsell {
            component: p.component,
            confirmation_link: p.confirmation_link,
            confirmation_title: p.confirmation_title,
            description: p.description,
            price: p.price,
        })
    }

    /// Operators: every deal of a site, disabled ones included.
    async fn admin_deals(&self, ctx: &Context<'_>, site: Option<String>) -> async_graphql::Result<Vec<Deal>> {
        admin(ctx)?;
        let site = site_or_host(ctx, site);
        let answer = upstreams(ctx).deals.admin_list(&request(ctx).call(), &site).await.map_err(errors::upstream)?;
        Ok(answer.deals.into_iter().map(Deal::from).collect())
    }
}

#[Object]
impl DealsMutation {
    /// Hide the offers interstitial for one month (interstitial_snooze): for who sees the
    /// HideMonthInterstitialButton (active subscribers with tenant access), FORBIDDEN otherwise.
    async fn snooze_interstitial(
        &self,
        ctx: &Context<'_>,
        input: InterstitialInput,
    ) -> async_graphql::Result<Interstitial> {
        request(ctx).viewer()?;
        abilities::require(ctx, action::SEE, subject::HIDE_MONTH_INTERSTITIAL_BUTTON, None).await?;
        let answer = InterstitialAnswer {
            site: site_or_host(ctx, input.site),
            deal_id: input.deal_id.as_ref().map(uuid).transpose()?,
        };
        let v =
            upstreams(ctx).deals.snooze_interstitial(&request(ctx).call(), &answer).await.map_err(errors::upstream)?;
        Ok(v.into())
    }

    /// Go on past the offers interstitial (interstitial_continue).
    async fn continue_interstitial(
        &self,
        ctx: &Context<'_>,
        input: InterstitialInput,
    ) -> async_graphql::Result<Interstitial> {
        request(ctx).viewer()?;
        let answer = InterstitialAnswer {
            site: site_or_host(ctx, input.site),
            deal_id: input.deal_id.as_ref().map(uuid).transpose()?,
        };
        let v = upstreams(ctx)
            .deals
            .continue_interstitial(&request(ctx).call(), &answer)
            .await
            .map_err(errors::upstream)?;
        Ok(v.into())
    }

    /// A step of loading the deal carousel (requested, success with the deals, failed).
    async fn track_deal_carousel_event(
        &self,
        ctx: &Context<'_>,
        input: DealCarouselEventInput,
    ) -> async_graphql::Result<DealCarouselEventResult> {
        let event = wire::CarouselEventRequest {
            site: site_or_host(ctx, input.site),
            step: match input.step {
                DealCarouselEventStep::Requested => DealCarouselStep::Requested,
                DealCarouselEventStep::Success => DealCarouselStep::Success,
                DealCarouselEventStep::Failed => DealCarouselStep::Failed,
            },
            deal_ids: input.deal_ids.iter().map(uuid).collect::<Result<_, _>>()?,
            reason: input.reason,
        };
        let answer =
            upstreams(ctx).deals.track_carousel_event(&request(ctx).call(), &event).await.map_err(errors::upstream)?;
        Ok(DealCarouselEventResult { tracking_id: ID(answer.tracking_id.to_string()) })
    }

    /// Operators: a new deal.
    async fn create_deal(&self, ctx: &Context<'_>, input: DealInput) -> async_graphql::Result<Deal> {
        admin(ctx)?;
        limit(ctx, Bucket::Write)?;
        let d = upstreams(ctx)
            .deals
            .admin_create(&request(ctx).call(), &input.into_wire()?)
            .await
            .map_err(errors::upstream)?;
        Ok(d.into())
    }

    /// Operators: a deal rewritten whole.
    async fn edit_deal(&self, ctx: &Context<'_>, id: ID, input: DealInput) -> async_graphql::Result<Deal> {
        admin(ctx)?;
        limit(ctx, Bucket::Write)?;
        let d = upstreams(ctx)
            .deals
            .admin_edit(&request(ctx).call(), uuid(&id)?, &input.into_wire()?)
            .await
            .map_err(errors::upstream)?;
        Ok(d.into())
    }

    /// Operators: show or hide a deal as one type.
    async fn set_deal_enabled(
        &self,
        ctx: &Context<'_>,
        id: ID,
        #[graphql(name = "type")] deal_type: DealType,
        enabled: bool,
    ) -> async_graphql::Result<Deal> {
        admin(ctx)?;
        limit(ctx, Bucket::Write)?;
        let (call, id, deal_type) = (request(ctx).call(), uuid(&id)?, deal_type.into());
        let deals = &upstreams(ctx).deals;
        let d = if enabled {
            deals.admin_enable(&call, id, deal_type).await
        } else {
            deals.admin_disable(&call, id, deal_type).await
        }
        .map_err(errors::upstream)?;
        Ok(d.into())
    }

    /// Operators: a deal's rank as one type.
    async fn rank_deal(
        &self,
        ctx: &Context<'_>,
        id: ID,
        #[graphql(name = "type")] deal_type: DealType,
        rank: i32,
    ) -> async_graphql::Result<Deal> {
        admin(ctx)?;
        limit(ctx, Bucket::Write)?;
        let d = upstreams(ctx)
            .deals
            .admin_rank(&request(ctx).call(), uuid(&id)?, deal_type.into(), i64::from(rank))
            .await
            .map_err(errors::upstream)?;
        Ok(d.into())
    }
}
