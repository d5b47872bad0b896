-- A consumer's record of the redelivery it is applying, one row per stream: if the process
-- dies in it, the row survives, and the stream's later events, which the broker returns ahead
-- of it, wait behind it instead of overtaking it.
create table consumer_in_flight (
    consumer text not null,
    stream_id text not null,
    event_id uuid not null,
    stream_version bigint not null,
    primary key (consumer, stream_id)
);

-- Events that came back ahead of an earlier event of their stream that crashed the consumer
-- (`behind`), acked and kept here until it is applied (they follow it, in stream order) or
-- dead-lettered (they follow it into the dead-letter queue, held behind it).
create table parked_event (
    consumer text not null,
    event_id uuid not null,
    stream_id text not null,
    stream_version bigint not null,
    behind uuid not null,
    data bytea not null,
    traceparent text,
    parked_at timestamptz not null default clock_timestamp(),
    primary key (consumer, event_id)
);
create index parked_event_stream on parked_event (consumer, stream_id, stream_version);
