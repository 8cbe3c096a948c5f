//! Sources: the collections and generators that parallel iterators start from.
//! One file per source. Their iterator types are public at Rayon's paths
//! (`prorata::range::Iter`, `prorata::vec::IntoIter`, ...) through re-exports in
//! `lib.rs`; the generators (`empty`, `repeat`, `split`, `walk_tree`, ...) are in
//! `prorata::iter`.

pub mod array;
mod bridge;
mod char_range;
pub(crate) mod drain;
pub(crate) mod drain_producer;
mod either;
mod empty;
mod multizip;
mod once;
pub mod option;
pub mod range;
pub mod range_inclusive;
mod range_sealed;
mod range_span;
mod repeat;
pub mod result;
pub mod slice;
mod split;
pub mod vec;
mod walk_tree;

pub use bridge::{IterBridge, ParallelBridge};
pub use drain::{ParallelDrainFull, ParallelDrainRange};
pub use empty::{Empty, empty};
pub use multizip::MultiZip;
pub use once::{Once, once};
#[allow(deprecated)]
pub use repeat::{Repeat, RepeatN, repeat, repeat_n, repeatn};
pub use split::{Split, split};
pub use walk_tree::{
    WalkTree, WalkTreePostfix, WalkTreePrefix, walk_tree, walk_tree_postfix, walk_tree_prefix,
};
