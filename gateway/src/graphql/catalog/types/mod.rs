//! The catalog's GraphQL types. Plain data is the catalog's own answer (`catalog::api`)
//! wrapped; what a page adds around it (a performer's whole card, a channel's packs, whether
//! the viewer favourited it) is resolved through the request's loaders, so a page costs the
//! same few internal calls whatever it holds.

use async_graphql::{ComplexObject, Context, Enum, Object, SimpleObject, ID};
use catalog_contract::api;
use chrono::{DateTime, Utc};

use access::abilities::{action, subject};

use super::loaders::{self, FavoriteKind};
use crate::graphql::abilities;

fn id(u: uuid::Uuid) -> ID {
    ID(u.to_string())
}

mod channels;
mod community;
mod discovery;
mod media;
mod performers;
mod showcases;
mod videos;

pub use channels::*;
pub use community::*;
pub use discovery::*;
pub use media::*;
pub use performers::*;
pub use showcases::*;
pub use videos::*;
