//! Sources: the collections and generators that parallel iterators start from.
//! One file per source. Their iterator types are public at Rayon's paths
//! (`prorata::range::Iter`, `prorata::slice::Iter`, ...) through re-exports in `lib.rs`.

pub mod range;
pub mod slice;
