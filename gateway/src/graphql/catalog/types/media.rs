//! Images, trailers and media references.

use super::*;

#[derive(SimpleObject, Clone)]
pub struct HighDpi {
    pub double: String,
    pub triple: String,
}

/// An image in the sizes the front end picks from.
#[derive(SimpleObject, Clone)]
pub struct Image {
    pub src: String,
    pub placeholder: String,
    pub width: u32,
    pub height: u32,
    pub file_extensions: Vec<String>,
    pub highdpi: HighDpi,
    pub name: Option<String>,
}

impl From<api::Image> for Image {
    fn from(i: api::Image) -> Self {
        Image {
            src: i.src,
            placeholder: i.placeholder,
            width: i.width,
            height: i.height,
            file_extensions: i.file_extensions,
            highdpi: HighDpi { double: i.highdpi.double, triple: i.highdpi.triple },
            name: i.name,
        }
    }
}

#[derive(SimpleObject, Clone)]
pub struct Trailer {
    pub src: String,
    pub poster: String,
}

impl From<api::Trailer> for Trailer {
    fn from(t: api::Trailer) -> Self {
        Trailer { src: t.src, poster: t.poster }
    }
}

#[derive(SimpleObject, Clone)]
pub struct VideoImages {
    pub poster: Image,
    pub listing: Image,
}

#[derive(SimpleObject, Clone)]
pub struct CategoryRef {
    pub slug: String,
    pub name: String,
}

impl From<api::CategoryRef> for CategoryRef {
    fn from(c: api::CategoryRef) -> Self {
        CategoryRef { slug: c.slug, name: c.name }
    }
}
