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
//! use prorata::prelude::*;
//!
//! let total: u64 = (1..=1000u64).into_par_iter().map(|x| x * x).sum();
//! assert_eq!(total, 333_833_500);
//!
//! let (a, b) = prorata::join(|| 1 + 1, || 2 + 2);
//! assert_eq!((a, b), (2, 4));
//!
//! // Two computations sharing one pool's cores three to one while both run.
//! let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! let (big, small) = (pool.share(300).unwrap(), pool.share(100).unwrap());
//! let (x, y) = std::thread::scope(|s| {
//!     let x = s.spawn(|| big.install(|| (0..10_000u64).into_par_iter().sum::<u64>()));
//!     let y = s.spawn(|| small.install(|| (0..10_000u64).into_par_iter().sum::<u64>()));
//!     (x.join().unwrap(), y.join().unwrap())
//! });
//! assert_eq!(x, y);
//! ```
//!
//! ## Where to start
//!
//! The [guide] walks from the first `par_iter` to shares, one page at a time:
//! [parallel iterators](guide::parallel_iterators),
//! [`join` and `scope`](guide::join_and_scope), [pools](guide::pools),
//! [shares](guide::shares), [moving from Rayon](guide::from_rayon),
//! [progress bars](guide::progress_bars) and
//! [statistics and timelines](guide::timeline).
//!
//! ## Cargo features
//!
//! | Feature | What it adds | Dependency |
//! |---|---|---|
//! | `progress` | `prorata::progress`: `.progress()`, `.progress_count(n)`, `.progress_with(bar)` on any parallel iterator | indicatif |
//! | `trace` | `ThreadPool::start_trace`/`stop_trace`: a timeline of the workers and shares, as Chrome trace event JSON or SVG (`Trace`) | none |
//!
//! None is on by default; without them nothing of theirs is compiled.
//!
//! ## Layers
//!
//! `iter` and `slice` split work and call into the pool through `join`; the pool
//! schedules jobs on workers; `shares` divides the cores; `deque` holds the per-worker
//! queues. `docs/architecture.md` in the repository says what each layer promises.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
// docs.rs builds with `--cfg docsrs`: items behind a cargo feature say which.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod deque;
pub mod iter;
mod pool;
pub mod prelude;

#[doc(hidden)]
pub use deque::bench as deque_bench;
pub use deque::{DequeKind, ThiefBarrier};
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

pub mod guide;

/// `String::par_drain`: a parallel iterator that moves a range of chars out of a
/// `String`.
pub mod string {
    pub use crate::str::drain::Drain;
}

mod shares;
mod trace;

#[cfg(feature = "progress")]
#[cfg_attr(docsrs, doc(cfg(feature = "progress")))]
pub mod progress;

/// Not part of the API (hidden, may change without notice): the shares allocator on a
/// simulated clock, for `examples/simulate.rs`.
#[doc(hidden)]
pub use shares::simulation as shares_simulation;
pub use shares::{ShareError, SharePolicy};
#[cfg(feature = "trace")]
#[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
pub use trace::{Trace, TraceEvent, TraceEventKind, TraceLane};
