-- Events a consumer set aside in its dead-letter queue, by stream. While a stream has
-- one, its later events are set aside behind it, so a replay applies them in order.
create table held_event (
    consumer text not null,
    event_id uuid not null,
    stream_id text not null,
    stream_version bigint not null,
    primary key (consumer, event_id)
);
create index held_event_stream on held_event (consumer, stream_id, stream_version);
