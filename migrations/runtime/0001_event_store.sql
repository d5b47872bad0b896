-- The event store, outbox and inbox every service keeps in its own schema.

-- Every event a service has recorded, in the order it was written.
create table event (
    global_position bigint generated always as identity primary key,
    event_id uuid not null unique,
    stream_id text not null,
    stream_version bigint not null check (stream_version > 0),
    event_type text not null,
    schema_version integer not null,
    occurred_at timestamptz not null,
    tenant text,
    correlation_id uuid not null,
    causation_id uuid,
    actor text not null,
    payload jsonb not null,
    -- W3C traceparent of the request that wrote it, so the trace continues through the broker.
    trace_context text,
    recorded_at timestamptz not null default clock_timestamp(),
    -- A second writer at the same expected version fails here and retries.
    constraint event_stream_version_key unique (stream_id, stream_version)
);

-- Events committed but not yet confirmed by the broker. The relay deletes a row only
-- after the broker confirmed it, so a row is published at least once. There is no
-- high-water mark: a row that commits after a later one is still found.
create table outbox (
    id bigint generated always as identity primary key,
    event_id uuid not null
);

-- Events a consumer has applied, keyed by consumer and event id. Written in the same
-- transaction as the consumer's effects, so a redelivered event changes nothing twice.
-- The envelope is kept so consumer-fed read models can be rebuilt in arrival order.
create table inbox (
    consumer text not null,
    event_id uuid not null,
    seq bigint generated always as identity,
    envelope jsonb not null,
    processed_at timestamptz not null default clock_timestamp(),
    primary key (consumer, event_id)
);
create index inbox_consumer_seq on inbox (consumer, seq);

-- Deliveries that failed at least once, counted across consumer restarts, so a message
-- that crashes its consumer every time is still dead-lettered after N attempts.
create table delivery_attempt (
    consumer text not null,
    event_id uuid not null,
    attempts integer not null,
    last_error text not null,
    primary key (consumer, event_id)
);
