//! Adaptors: each wraps a parallel iterator (and its producer and consumer) to
//! change the items on the way. One file per adaptor.

mod enumerate;
mod map;

pub use enumerate::Enumerate;
pub use map::Map;
