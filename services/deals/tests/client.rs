//! The typed client against the real service on a free port.

mod support;

use std::time::Duration;

use deals::api::{CarouselEventRequest, DealInput, FindDealsQuery, InterstitialAnswer};
use deals::client::DealsClient;
use proto_events::deals::{DealCarouselStep, DealType};
use runtime::client::{CallContext, UpstreamError};
use uuid::Uuid;

use support::TestEnv;

fn ctx(token: Option<String>, tenant: &str) -> CallContext {
    CallContext { bearer: token, tenant: Some(tenant.into()), correlation_id: None }
}

#[tokio::test]
async fn every_client_call_reaches_its_endpoint() {
    let env = TestEnv::new().await;
    let client = DealsClient::new(&env.base, Duration::from_secs(5));
    let admin = ctx(Some(env.admin()), "tushy");
    let input = DealInput {
        name: Some("northwind".into()),
        site: Some("tushy".into()),
        partner_name: Some("Northwind Stream".into()),
        deal_text: Some("A year at a member price".into()),
        url: Some("https://northwind.example.com/join".into()),
        enabled: true,
        rank: Some(4),
        ..DealInput::default()
    };
    let created = client.admin_create(&admin, &input).await.unwrap();
    assert_eq!((created.name.as_str(), created.rank, created.enabled_list), ("northwind", 4, false));
    let id = created.id;
    assert_eq!(client.admin_get(&admin, id).await.unwrap(), created);
    let edited =
        client.admin_edit(&admin, id, &DealInput { deal_text: Some("Cheaper".into()), ..input.clone() }).await.unwrap();
    assert_eq!(edited.deal_text, "Cheaper");
    assert!(client.admin_enable(&admin, id, DealType::Listing).await.unwrap().enabled_list);
    assert_eq!(client.admin_rank(&admin, id, DealType::Listing, 2).await.unwrap().rank_listing, 2);
    assert!(!client.admin_disable(&admin, id, DealType::Carousel).await.unwrap().enabled);
    assert_eq!(client.admin_list(&admin, "tushy").await.unwrap().deals.len(), 1);

    let anonymous = CallContext::anonymous("tushy");
    let query = FindDealsQuery { deal_type: DealType::Listing, site: "tushy".into(), limit: Some(15) };
    let found = client.find_deals(&anonymous, &query).await.unwrap();
    assert_eq!(found.deals.iter().map(|d| d.id).collect::<Vec<_>>(), [id]);
    let carousel = FindDealsQuery { deal_type: DealType::Carousel, site: "tushy".into(), limit: None };
    assert!(client.find_deals(&anonymous, &carousel).await.unwrap().deals.is_empty());

    let user = ctx(Some(env.token(Uuid::now_v7(), "tushy", &[])), "tushy");
    let answer = InterstitialAnswer { site: "tushy".into(), deal_id: Some(id) };
    assert!(!client.interstitial(&user, "tushy").await.unwrap().snoozed);
    assert!(client.snooze_interstitial(&user, &answer).await.unwrap().snoozed);
    assert!(client.continue_interstitial(&user, &answer).await.unwrap().snoozed);
    let offers = client.offers(&user, "tushy").await.unwrap();
    assert_eq!((offers.offer_page_id, offers.interstitial.map(|i| i.snoozed)), (2, Some(true)));
    let tracked = client
        .track_carousel_event(
            &anonymous,
            &CarouselEventRequest {
                site: "tushy".into(),
                step: DealCarouselStep::Requested,
                deal_ids: vec![],
                reason: None,
            },
        )
        .await
        .unwrap();
    assert!(!tracked.tracking_id.is_nil());

    let props = deals::confirmation::ConfirmOutgoingUpsellProps {
        confirmation_link: "/oneclick/outgoing-upsell?confirmed=1".into(),
        price: Some("$1.00".into()),
        ..Default::default()
    };
    let encoded = deals::confirmation::encode_confirmation(&props);
    assert_eq!(client.check_confirmation(&anonymous, &encoded).await.unwrap(), props);
    let empty = deals::confirmation::encode_confirmation(&deals::confirmation::ConfirmOutgoingUpsellProps::default());
    match client.check_confirmation(&anonymous, &empty).await {
        Err(UpstreamError::Refused { status, code, message, .. }) => {
            assert_eq!(
                (status, code.as_str(), message.as_str()),
                (422, "CONFIRMATION_LINK_MISSING", deals::confirmation::LINK_MISSING)
            );
        }
        other => panic!("{other:?}"),
    }
    // A member is refused the admin API with the service's code.
    match client.admin_list(&user, "tushy").await {
        Err(e) => assert_eq!((e.status(), e.code()), (Some(403), "FORBIDDEN")),
        Ok(_) => panic!("a member listed the admin deals"),
    }
    let svg = env.http.get(client.media_url(&format!("/media/deals/{id}/thumb-64x36.svg"))).send().await.unwrap();
    assert_eq!(svg.status(), 200);
    env.cleanup().await;
}

#[tokio::test]
async fn a_service_that_does_not_answer_is_unavailable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = DealsClient::new(base, Duration::from_secs(1));
    let query = FindDealsQuery { deal_type: DealType::Carousel, site: "tushy".into(), limit: None };
    let err = client.find_deals(&CallContext::anonymous("tushy"), &query).await.unwrap_err();
    assert_eq!(err.code(), "SERVICE_UNAVAILABLE");
}
