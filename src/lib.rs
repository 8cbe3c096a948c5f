//! # prorata
//!
//! Data parallelism in the family of Rayon — `par_iter()`, `join`, `scope`, parallel
//! sorts — run by a work-stealing pool whose cores can be split among competing
//! computations by **ticket shares**.
//!
//! Switching from Rayon is meant to be a rename: `use rayon::prelude::*` becomes
//! `use prorata::prelude::*`.
//!
//! ```
//! let (a, b) = prorata::join(|| 1 + 1, || 2 + 2);
//! assert_eq!((a, b), (2, 4));
//! ```
//!
//! The crate is layered (see `DESIGN.md`): `iter` and `slice` split work and call
//! into `pool`; `pool` schedules jobs on workers; `shares` divides the cores;
//! `deque` holds the per-worker queues.

#![deny(unsafe_op_in_unsafe_fn)]

mod deque;
pub mod iter;
mod pool;
pub mod prelude;

pub use deque::DequeKind;
#[doc(hidden)]
pub use deque::bench as deque_bench;
pub use pool::*;

/// Parallel iterators over ranges (`(a..b).into_par_iter()`).
pub mod range {
    pub use crate::iter::sources::range::*;
}

/// Parallel iterators over inclusive ranges (`(a..=b).into_par_iter()`).
pub mod range_inclusive {
    pub use crate::iter::sources::range_inclusive::*;
}

/// Parallel iterators that own or drain a `Vec` (`vec.into_par_iter()`,
/// `vec.par_drain(..)`).
pub mod vec {
    pub use crate::iter::sources::vec::*;
}

/// Parallel iterators over `Option` (`option.into_par_iter()`, `option.par_iter()`).
pub mod option {
    pub use crate::iter::sources::option::*;
}

/// Parallel iterators over the `Ok` value of a `Result`.
pub mod result {
    pub use crate::iter::sources::result::*;
}

/// Parallel iterators over owned arrays (`[T; N].into_par_iter()`).
pub mod array {
    pub use crate::iter::sources::array::*;
}

pub mod slice;
pub mod str;

pub mod collections;

/// `String::par_drain`: a parallel iterator that moves a range of chars out of a
/// `String`.
pub mod string {
    pub use crate::str::drain::Drain;
}

mod shares;

pub use shares::{Share, ShareError, SharePolicy, ShareStats, share};
