//! The guide: prorata from the first `par_iter` to dividing cores among computations.
//! Pages only, no code; every example on them is a doctest.
//!
//! 1. [Parallel iterators](parallel_iterators): `par_iter()` and friends, what runs
//!    where, order, grain.
//! 2. [`join` and `scope`](join_and_scope): fork-join by hand, borrowing tasks,
//!    panics, waits that cannot deadlock (`isolate`), blocking (`block_in_place`).
//! 3. [Pools](pools): the global pool, your own pools, threads and their names.
//! 4. [Shares](shares): tickets, currencies, `set_tickets`, transfers, policies,
//!    `stats()`.
//! 5. [Moving from Rayon](from_rayon): what is the same, what is extra, what differs.
//! 6. [Moving a whole program](whole_program): the `rayon` and `rayon-core` shims that
//!    put every dependency's parallel work on prorata.
//! 7. [Progress bars](progress_bars): the `progress` feature.
//! 8. [Statistics and timelines](timeline): `stats()`, and the `trace` feature.
//! 9. [Serving](serving): awaiting a pool or a share from async code, a share per
//!    request, and a real server.

#[doc = include_str!("parallel_iterators.md")]
pub mod parallel_iterators {}

#[doc = include_str!("join_and_scope.md")]
pub mod join_and_scope {}

#[doc = include_str!("pools.md")]
pub mod pools {}

#[doc = include_str!("shares.md")]
pub mod shares {}

#[doc = include_str!("from_rayon.md")]
pub mod from_rayon {}

#[doc = include_str!("whole_program.md")]
pub mod whole_program {}

#[doc = include_str!("serving.md")]
pub mod serving {}

#[doc = include_str!("progress_bars.md")]
pub mod progress_bars {}

#[doc = include_str!("timeline.md")]
#[doc = ""]
// The timeline half links to items that exist only with the feature.
#[cfg_attr(feature = "trace", doc = include_str!("timeline_trace.md"))]
#[cfg_attr(
    not(feature = "trace"),
    doc = "## Timelines, with the `trace` feature\n\nThese docs were built without the \
           cargo feature `trace`; build them with `--features trace` (or read them on \
           docs.rs) for `ThreadPool::start_trace` and the timeline it records."
)]
pub mod timeline {}
