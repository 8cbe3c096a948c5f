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

pub use pool::*;

/// Parallel iterators over ranges (`(a..b).into_par_iter()`).
pub mod range {
    pub use crate::iter::sources::range::*;
}

/// Parallel iterators over slices (`slice.par_iter()`, `slice.par_iter_mut()`).
pub mod slice {
    pub use crate::iter::sources::slice::*;
}

mod shares;

pub use shares::{Share, ShareError, SharePolicy, ShareStats, share};
