//! Logs, traces and metrics.
//!
//! Logs are JSON lines with fixed messages and fields. Traces go out over OTLP only when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set; W3C trace context (`traceparent`) and the
//! correlation id travel in HTTP and AMQP headers, and with each stored event, so one
//! trace runs from a browser request through the gateway, a service, the broker and a
//! consumer. Metrics are Prometheus text at `/metrics`.

use std::{collections::HashMap, sync::OnceLock};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use opentelemetry::{
    propagation::{Extractor, Injector, TextMapPropagator},
    trace::TracerProvider as _,
};
use opentelemetry_otlp::WithHttpConfig as _;
use opentelemetry_sdk::{propagation::TraceContextPropagator, trace::SdkTracerProvider, Resource};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::{layer::SubscriberExt, util::SubscriberInitExt, EnvFilter};

/// Flushes traces when dropped; keep it alive for the life of the process.
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take() {
            // The SDK exports from its own thread; shutting it down from the runtime would block it.
            let _ = std::thread::spawn(move || provider.shutdown()).join();
        }
    }
}

/// Installs JSON logging on stderr (`RUST_LOG`, default `info`), and OTLP tracing when configured.
pub fn init(service: &str, otlp_endpoint: Option<&str>) -> TelemetryGuard {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,lapin=warn,amq_protocol=warn,h2=warn,hyper=warn"));
    // On stderr: a command's own output (the `paysite` command's lists and reports) stays
    // alone on stdout, and the logs are still collected wherever stderr goes.
    let json = tracing_subscriber::fmt::layer()
        .json()
        .flatten_event(true)
        .with_current_span(false)
        .with_writer(std::io::stderr);
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let provider = otlp_endpoint.and_then(|_| match build_provider(service) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("paysite: traces disabled, OTLP exporter failed: {e}");
            None
        }
    });
    let otel = provider.as_ref().map(|p| tracing_opentelemetry::layer().with_tracer(p.tracer("paysite")));
    let _ = tracing_subscriber::registry().with(filter).with(json).with(otel).try_init();
    install_metrics();
    TelemetryGuard { provider }
}

fn build_provider(service: &str) -> anyhow::Result<SdkTracerProvider> {
    let service = service.to_owned();
    // The blocking HTTP client must be built (and later dropped) off the async runtime.
    std::thread::spawn(move || {
        // An https endpoint trusts the configured CA file too (crate::tls).
        let client =
            crate::tls::blocking_http_client(crate::tls::blocking_client_builder(), crate::tls::settings())?.build()?;
        let exporter = opentelemetry_otlp::SpanExporter::builder().with_http().with_http_client(client).build()?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(Resource::builder().with_service_name(service).build())
            .build();
        opentelemetry::global::set_tracer_provider(provider.clone());
        Ok(provider)
    })
    .join()
    .map_err(|_| anyhow::anyhow!("OTLP exporter set-up panicked"))?
}

/// `paysite_relay_lag_seconds` (commit to broker confirm) and `paysite_consumer_lag_seconds`
/// (commit to a consumer's effects): from milliseconds to an outage.
pub const RELAY_LAG_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0, 30.0, 120.0, 600.0];
/// Batch sizes (`paysite_wallet_batch_size`, `paysite_postback_batch_size`).
pub const BATCH_SIZE_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];
/// Any other `*_seconds` histogram.
pub const SECONDS_BUCKETS: [f64; 11] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process-wide Prometheus recorder (installed once).
pub fn install_metrics() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        // Explicit buckets for every histogram: rendered as Prometheus histograms (which add
        // up across replicas), never as summaries.
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("paysite_http_request_duration_seconds".into()),
                &crate::http::HTTP_DURATION_BUCKETS,
            )
            .and_then(|b| {
                b.set_buckets_for_metric(Matcher::Full("paysite_relay_lag_seconds".into()), &RELAY_LAG_BUCKETS)
            })
            .and_then(|b| {
                b.set_buckets_for_metric(Matcher::Full("paysite_consumer_lag_seconds".into()), &RELAY_LAG_BUCKETS)
            })
            .and_then(|b| b.set_buckets_for_metric(Matcher::Suffix("_batch_size".into()), &BATCH_SIZE_BUCKETS))
            .and_then(|b| b.set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &SECONDS_BUCKETS))
            .expect("non-empty buckets")
            .build_recorder();
        let handle = recorder.handle();
        let _ = metrics::set_global_recorder(recorder);
        handle
    })
}

/// The `traceparent` of the current span, if a trace is being recorded.
pub fn current_traceparent() -> Option<String> {
    let mut carrier = HashMap::new();
    inject_current(&mut carrier);
    carrier.remove("traceparent")
}

/// Writes the current span's trace context into a header map.
pub fn inject_current(carrier: &mut HashMap<String, String>) {
    let context = tracing::Span::current().context();
    TraceContextPropagator::new().inject_context(&context, &mut MapInjector(carrier));
}

/// Makes `span` a child of the trace named by `traceparent` (from a header or a stored event).
pub fn set_parent(span: &tracing::Span, traceparent: Option<&str>) {
    let Some(tp) = traceparent else { return };
    let carrier = HashMap::from([("traceparent".to_owned(), tp.to_owned())]);
    let context = TraceContextPropagator::new().extract(&MapExtractor(&carrier));
    let _ = span.set_parent(context);
}

struct MapInjector<'a>(&'a mut HashMap<String, String>);

impl Injector for MapInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
}

struct MapExtractor<'a>(&'a HashMap<String, String>);

impl Extractor for MapExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}
