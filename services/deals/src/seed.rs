//! Demo deals for every brand: neutral partner names, example prices (prices are
//! configuration, never code: here the seed is that configuration) and generated logos and
//! thumbnails served by this service. Written through the same checks and commands as the
//! admin API, so they are events; a deal that already exists is left as operators left it,
//! so the seed can run again.

use proto_events::{Actor, EventMeta};
use runtime::auth::{JwkSet, Verifier};
use runtime::service::{BoxFuture, ServiceContext};
use uuid::Uuid;

use crate::commands::run_deal;
use crate::domain::{DealCommand, DealError};
use crate::input::{validate, DealInput, ImageInput};
use crate::media::{image_path, ImageKind};
use crate::{DealsConfig, Sites, State};

/// One demo partner: name, price, discount and where it shows (carousel, listing,
/// interstitial rank, or `None` when not shown there).
struct Partner {
    name: &'static str,
    price: &'static str,
    discount: Option<&'static str>,
    literal: Option<&'static str>,
    carousel: Option<u32>,
    listing: Option<u32>,
    interstitial: Option<u32>,
    exclusive: bool,
    one_click: bool,
    internal_one_click: bool,
    special_offer: bool,
}

const fn partner(name: &'static str, price: &'static str, discount: Option<&'static str>) -> Partner {
    Partner {
        name,
        price,
        discount,
        literal: None,
        carousel: None,
        listing: None,
        interstitial: None,
        exclusive: false,
        one_click: false,
        internal_one_click: false,
        special_offer: false,
    }
}

const PARTNERS: &[Partner] = &[
    Partner {
        carousel: Some(1),
        listing: Some(2),
        interstitial: Some(1),
        exclusive: true,
        one_click: true,
        ..partner("Northwind Stream", "$1.00", Some("75"))
    },
    Partner { carousel: Some(2), listing: Some(1), ..partner("Bluebird Films", "$9.95", Some("50")) },
    Partner {
        literal: Some("3 DAYS FREE"),
        carousel: Some(3),
        interstitial: Some(2),
        one_click: true,
        ..partner("Harbor Cinema Club", "$4.95", None)
    },
    Partner { listing: Some(3), internal_one_click: true, ..partner("Aurora Pictures", "$14.99", Some("60")) },
    Partner { carousel: Some(4), interstitial: Some(4), ..partner("Maple Street Studio", "$2.95", Some("40")) },
    Partner {
        carousel: Some(0),
        listing: Some(0),
        interstitial: Some(0),
        exclusive: true,
        one_click: true,
        special_offer: true,
        ..partner("Lumen Video", "$0.99", Some("90"))
    },
    // Shown nowhere yet: operators see it in their list and may enable it.
    partner("Cedar Lane Media", "$7.50", Some("25")),
    Partner {
        carousel: Some(5),
        listing: Some(4),
        interstitial: Some(3),
        ..partner("Orchid Screen", "$19.95", Some("30"))
    },
];

fn slug(name: &str) -> String {
    name.to_ascii_lowercase().split_whitespace().collect::<Vec<_>>().join("-")
}

/// FNV-1a: a stable number per brand key, so a brand's demo ids never depend on the others.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The id of the `n`th demo deal of `site`: the same on every run.
pub fn demo_deal_id(site: &str, n: usize) -> Uuid {
    let high: u64 = 0x0190_f5a2_de00_7000;
    let low = 0x8000_0000_0000_0000 | (fnv(site) & 0x0fff_ffff_ffff_ff00) | n as u64;
    Uuid::from_u64_pair(high, low)
}

/// The demo deals of `site`, as an operator would send them.
pub fn demo_deals(site: &str) -> Vec<DealInput> {
    PARTNERS
        .iter()
        .enumerate()
        .map(|(n, p)| {
            let id = demo_deal_id(site, n);
            let slug = slug(p.name);
            let image = |kind, width, height| ImageInput { src: image_path(id, kind, width, height), width, height };
            DealInput {
                id: Some(id),
                name: Some(format!("{slug}-{site}")),
                site: Some(site.to_owned()),
                partner_name: Some(p.name.to_owned()),
                deal_text: Some(format!("Get {} at a member price", p.name)),
                deal_text_listing: Some(format!("{}, one year", p.name)),
                discount: p.discount.map(str::to_owned),
                discount_prefix: p.discount.map(|_| "SAVE".to_owned()),
                discount_text_post_prefix: p.discount.map(|_| "% OFF".to_owned()),
                discount_literal: p.literal.map(str::to_owned).or(p.discount.map(|d| format!("SAVE {d}% OFF"))),
                exclusive: p.exclusive,
                url: Some(format!("https://{slug}.example.com/join?ref={site}")),
                one_click_url: p.one_click.then(|| format!("https://{slug}.example.com/oneclick?ref={site}")),
                internal_one_click: p.internal_one_click,
                initial_price: Some(p.price.to_owned()),
                logo: vec![image(ImageKind::Logo, 200, 60), image(ImageKind::Logo, 400, 120)],
                thumbnail: vec![image(ImageKind::Thumb, 320, 180), image(ImageKind::Thumb, 640, 360)],
                request_partner_consent: p.one_click,
                one_click_enabled: p.one_click,
                its_up_zone_id: Some(format!("zone-{}", 1000 + n)),
                its_up_campaign_id: Some(format!("campaign-{site}-{n}")),
                rank: Some(p.carousel.unwrap_or(100 + n as u32).into()),
                rank_listing: Some(p.listing.unwrap_or(100 + n as u32).into()),
                rank_interstitial: Some(p.interstitial.unwrap_or(100 + n as u32).into()),
                enabled: p.carousel.is_some(),
                enabled_list: p.listing.is_some(),
                enabled_interstitial: p.interstitial.is_some(),
                special_offer: p.special_offer,
            }
        })
        .collect()
}

/// Writes the demo deals of every brand; returns how many it created (0 on a re-run).
pub async fn seed_state(state: &State) -> anyhow::Result<usize> {
    let mut created = 0;
    for site in state.sites.iter() {
        for input in demo_deals(&site.key) {
            let id = input.id.expect("demo deals carry their id");
            let deal = validate(input, id, |s| state.sites.contains(s))
                .map_err(|e| anyhow::anyhow!("demo deal {id} of {}: {e}", site.key))?;
            let meta = EventMeta::new(Actor::System("deals.seed".into())).with_tenant(&site.key);
            match run_deal(state, id, DealCommand::Create { deal, at: state.clock.now() }, &meta).await? {
                Ok(outcome) => created += usize::from(outcome.changed),
                // Edited by an operator since: theirs stands.
                Err(DealError::AlreadyExists(_)) => {}
                Err(e) => anyhow::bail!("demo deal {id} of {}: {e}", site.key),
            }
        }
    }
    Ok(created)
}

/// `ServiceDef.seed`: the demo deals of every configured brand.
pub fn seed(ctx: ServiceContext) -> BoxFuture<anyhow::Result<()>> {
    Box::pin(async move {
        let config = DealsConfig::from_env();
        let sites = Sites::load(&config.tenants_dir)?;
        // The seed serves no requests: it checks no tokens.
        let verifier = Verifier::from_jwks(&JwkSet::default())?;
        let state = State::new(ctx.pool, ctx.store, config, sites, verifier);
        let created = seed_state(&state).await?;
        tracing::info!(created, "demo deals seeded");
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_deal_passes_the_operators_checks_with_a_stable_distinct_id() {
        let sites = Sites::load(&DealsConfig::default().tenants_dir).unwrap();
        let mut ids = std::collections::BTreeSet::new();
        for site in sites.iter() {
            for input in demo_deals(&site.key) {
                let id = input.id.unwrap();
                assert!(ids.insert(id), "{id} twice");
                let deal = validate(input, id, |s| sites.contains(s)).unwrap();
                assert!(deal.logo.iter().chain(&deal.thumbnail).all(|i| i.src.starts_with("/media/deals/")));
            }
        }
        assert_eq!(ids.len(), sites.iter().count() * PARTNERS.len());
        assert_eq!(demo_deal_id("tushy", 3), demo_deal_id("tushy", 3));
        assert_eq!(PARTNERS.iter().filter(|p| p.special_offer).count(), 1, "one special offer per brand");
    }
}
