//! Parallel iterators: Rayon's traits, adaptors, sources and consumers.
//!
//! Sources (`sources/`) make producers; adaptors (`adaptors/`) wrap producers and
//! consumers; consumers (`consumers/`, `collect/`) finish a chain. Everything is
//! driven by the splitting in [`plumbing`].
//!
//! ```
//! use prorata::prelude::*;
//! let total = std::sync::atomic::AtomicUsize::new(0);
//! (0..100usize).into_par_iter().map(|x| 2 * x).for_each(|x| {
//!     total.fetch_add(x, std::sync::atomic::Ordering::Relaxed);
//! });
//! assert_eq!(total.into_inner(), 9900);
//! ```

pub mod plumbing;

mod adaptors;
mod collect;
mod consumers;
mod indexed;
mod indexed_parallel_iterator;
mod into;
mod parallel_iterator;
pub(crate) mod sources;

pub use adaptors::*;
pub(crate) use collect::vec_list::{Piece, PieceList};
pub use collect::{FromParallelIterator, ParallelExtend};
pub use indexed::*;
pub use indexed_parallel_iterator::IndexedParallelIterator;
pub use into::{IntoParallelIterator, IntoParallelRefIterator, IntoParallelRefMutIterator};
pub use parallel_iterator::ParallelIterator;
#[allow(deprecated)]
pub use sources::repeatn;
pub use sources::{
    Empty, IterBridge, MultiZip, Once, ParallelBridge, ParallelDrainFull, ParallelDrainRange,
    Repeat, RepeatN, Split, WalkTree, WalkTreePostfix, WalkTreePrefix, empty, once, repeat,
    repeat_n, split, walk_tree, walk_tree_postfix, walk_tree_prefix,
};

/// `either`'s `Either`: a parallel iterator when both sides are.
pub use either::Either;
