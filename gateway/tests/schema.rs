//! `gateway/schema.graphql` is the schema the code builds; `UPDATE_SCHEMA=1` rewrites it.

use std::path::PathBuf;

#[test]
fn the_exported_schema_matches_the_code() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema.graphql");
    let sdl = gateway::graphql::sdl();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &sdl).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == sdl,
        "gateway/schema.graphql is out of date with the code; run `UPDATE_SCHEMA=1 cargo nextest run -p gateway schema` \
         and commit the result"
    );
}
