//! `cargo run -p gateway`: the gateway alone (`paysite up` runs it beside the services).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = runtime::Settings::from_env()?;
    let _telemetry = runtime::telemetry::init("gateway", settings.otlp_endpoint.as_deref());
    runtime::auth::ServiceKey::init_from_env()?;
    runtime::auth::ServiceTokens::set_process_name("gateway");
    gateway::run(gateway::GatewayConfig::from_env()?, runtime::http::shutdown_signal()).await
}
