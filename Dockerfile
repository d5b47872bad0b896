# The paysite image: one `paysite` binary that runs any service (`paysite serve <name>`),
# the gateway (`paysite serve gateway`) and the one-shot commands (`paysite migrate`,
# `paysite dlq ...`), with the tenants (config/) and the built SPA (frontend/dist).
#
#   docker build -t paysite:local .
#
# Stages: spa (node, npm ci && npm run build) | plan -> deps -> build (Rust, dependency
# layer cached on the manifests) | runtime (debian slim, non-root).

ARG RUST_VERSION=1.95
ARG NODE_VERSION=20
ARG DEBIAN_RELEASE=bookworm
# Extra cargo features: none in the release (see "Rust" below).
ARG PAYSITE_FEATURES=""

# --- the SPA -------------------------------------------------------------------------
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS spa
WORKDIR /src/frontend
# Packages first: this layer is reused until package.json or the lock file changes.
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
# The route table the loaders read (frontend/src/app/routing/table.ts).
COPY config/routes.json /src/config/routes.json
COPY config/head.json /src/config/head.json
RUN npm run build

# --- Rust ------------------------------------------------------------------------------
# The release is built without the default features `demo` (the demo users, whose password
# is published, and the generated demo media) and `bench` (the benchmarks): `paysite seed`
# and `paysite bench` do not exist in it. scripts/check-deploy fails if they come back.
# PAYSITE_FEATURES adds features for a development image only: docker-compose.yml builds
# `paysite:demo` with `demo`, for its seeded stack.
FROM rust:${RUST_VERSION}-${DEBIAN_RELEASE} AS rust
WORKDIR /src
ENV CARGO_TERM_COLOR=never \
    CARGO_INCREMENTAL=0

# The manifests with empty stand-ins for every target (deploy/stub-workspace.sh). This
# stage reruns on any change, but its output only changes with a manifest or the lock
# file, so the `COPY --from=plan` below and the dependency build after it stay cached.
FROM rust AS plan
COPY . .
RUN bash deploy/stub-workspace.sh /plan

# Every dependency of `paysite`, compiled once per manifest change.
FROM rust AS deps
ARG PAYSITE_FEATURES
COPY --from=plan /plan/ ./
RUN cargo build --release --locked -p paysite --no-default-features --features "$PAYSITE_FEATURES"

# The real sources. COPY keeps the files' own (older) times, so they are touched to be
# newer than the stubs just built, or cargo would keep the stub binary.
FROM deps AS build
ARG PAYSITE_FEATURES
COPY . .
RUN find . -path ./target -prune -o -name '*.rs' -exec touch {} + \
 && cargo build --release --locked -p paysite --no-default-features --features "$PAYSITE_FEATURES" \
 && install -D -m 0755 target/release/paysite /out/paysite

# --- runtime ---------------------------------------------------------------------------
FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# ca-certificates unpinned on purpose: the newest trust store of the release is wanted.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 paysite \
 && useradd --system --uid 10001 --gid paysite --home-dir /app --no-create-home --shell /usr/sbin/nologin paysite
WORKDIR /app
COPY --from=build /out/paysite /usr/local/bin/paysite
# No curl in a slim image: docker-compose.yml's healthchecks use this bash /dev/tcp probe.
COPY --chmod=0755 deploy/healthcheck.sh /usr/local/bin/paysite-healthcheck
COPY config/ /app/config/
COPY --from=spa /src/frontend/dist/ /app/frontend/dist/
ENV PAYSITE_TENANTS_DIR=/app/config/tenants \
    PAYSITE_DIST_DIR=/app/frontend/dist \
    RUST_LOG=info
# Numeric, so Kubernetes' runAsNonRoot can verify it.
USER 10001:10001
EXPOSE 8080
# No entrypoint: compose and Kubernetes give the whole command (`paysite serve wallet`).
CMD ["paysite", "--help"]
