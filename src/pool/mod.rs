//! The work-stealing pool: workers, `join`, `scope`, `spawn`, `broadcast`, the builder
//! and the global pool. Rayon's API and semantics, so programs port by renaming the crate.
//!
//! One file per concept: `registry` (a pool's shared state and the ways into it from
//! outside), `worker` (per-thread state, finding work, waiting), `job` (type-erased jobs:
//! a data pointer and an execute function), `latch` (completion signals), `sleep` (idle
//! workers and wake-ups), `preempt` (the hooks for shares), `shares` (a share's
//! sub-pool, `Share`, and the link from a pool to the core permits of
//! `crate::shares`, the scheduler below the pool), `join`, `scope`, `spawn`,
//! `broadcast`, `future` (`spawn_future`), `isolate` (waits that run only their own region's jobs), `yield_now`, `builder`, `thread_pool`, `global`; the deques are in
//! `crate::deque`.
//!
//! # Scheduling
//!
//! Each worker owns a deque (owner LIFO, thieves FIFO from victims picked by a per-worker
//! xorshift generator); work from outside goes to one injector. `join` is work-first: it
//! pushes its second closure as a job living on the caller's stack, runs the first, then
//! pops the second back (running it inline) unless a thief took it, in which case it
//! waits on the job's latch while executing other jobs of the same pool (leapfrogging).
//! Workers steal one job at a time from each other, which keeps the busy-leaves bound:
//! a recursion of depth `d` through `join` never queues more than `d` jobs on a worker
//! (checked by `tests/pool_api.rs` through the hidden `debug_take_max_queued_jobs`).
//! A `join` on a worker does not allocate and clones no `Arc`.
//!
//! Idle workers search for a few dozen rounds, yielding their core, then sleep on a
//! condition variable (an idle pool uses ~0% CPU); see `sleep.rs` for why no wake-up of
//! injected work or of a latch's waiter can be lost. `ci/loom.sh` model-checks it.
//!
//! # Decisions
//!
//! - `install` from a plain thread injects the job and blocks. From a worker of another
//!   pool it injects the job and the calling worker keeps executing its own pool's jobs
//!   while it waits (like Rayon), so pools calling into each other cannot deadlock on
//!   blocked workers.
//! - A panic in `join`, `scope`, `install` or `broadcast` is re-raised in the caller after
//!   every sibling job has finished. A panic in a spawned job goes to the pool's panic
//!   handler; without one the process aborts, as in Rayon.
//! - Dropping a `ThreadPool` never blocks (as in Rayon): its workers finish what is queued
//!   and spawned, then exit. A panic in a start or exit handler goes to the panic
//!   handler, like a spawned job's.
//! - `ThreadPool::wait` ends a pool and blocks until its workers' threads have exited
//!   (`worker_exits.rs`: a count of running workers, and the join handles of the
//!   threads prorata started). Called from the pool's own workers, or its shares', it
//!   panics instead of waiting for itself.
//!
//! # Hooks for shares
//!
//! See `preempt.rs`: `safe_point()` (one relaxed load of a global flag while no shares
//! exist) and the `Pacer` of leaf loops, the per-worker flags `ThreadInfo::flags`
//! checked by `WorkerThread::check_flags` at each job start and, through the gate of
//! the join fast path (`flags.rs`), at each `join`,
//! `worker_idle` where a worker runs out of work, and `worker_resumed` where it goes on
//! after waiting on a latch (`WorkerThread::wait_until_cold`). They call into
//! `pool/shares/link.rs` (`PoolShares`), which calls the permits; `pool/shares/mod.rs`
//! walks through the whole path.
//!
//! `retire.rs`: a pool can opt in (share sub-pools do) to workers that start when there
//! is work and whose threads exit after a while asleep in their main loop; to the sleep
//! protocol a retired worker is a sleeper whose wake-up restarts it.
//! `spare_threads.rs`: the threads of such workers wait a while for the next worker
//! to start, so that a share made per request starts no thread.
//!
//! # Counting and tracing
//!
//! `stats.rs`: each worker counts its jobs, steals, published and claimed join frames,
//! sleeps and wake-ups in counters of its own (`ThreadPool::stats`, `Share::stats`),
//! through `WorkerThread::note`, which also records the event in the pool's timeline
//! when the `trace` feature is on and a recording runs (`crate::trace`).

mod blocking;
mod broadcast;
mod build_error;
mod builder;
mod configuration;
mod cpu_quota;
mod current_thread;
mod flags;
mod frames;
mod future;
mod global;
mod isolate;
mod job;
mod join;
mod latch;
mod preempt;
mod registry;
mod retire;
mod scope;
mod shares;
mod sleep;
mod spare_threads;
mod spawn;
mod stats;
mod sync;
mod thread_builder;
mod thread_pool;
mod unwind;
mod worker;
mod worker_exits;
mod yield_now;

#[cfg(all(test, loom))]
mod loom_tests;
#[cfg(all(test, not(loom)))]
mod retire_tests;
#[cfg(all(test, not(loom)))]
mod tests;

pub use blocking::block_in_place;
pub use broadcast::{BroadcastContext, broadcast, spawn_broadcast};
pub use build_error::{ThreadPoolBuildError, ThreadPoolBuildErrorKind};
pub use builder::ThreadPoolBuilder;
#[allow(deprecated)]
pub use configuration::{Configuration, initialize};
pub use future::SpawnFuture;
pub(crate) use global::global_registry;
pub use global::{
    current_num_threads, current_thread_has_pending_tasks, current_thread_index, max_num_threads,
};
pub use isolate::isolate;
pub use join::{FnContext, join, join_context};
#[allow(unused_imports)] // used by the iterator layer
pub(crate) use preempt::safe_point;
pub(crate) use preempt::{Pacer, enable_shares};
pub(crate) use registry::Registry;
pub(crate) use retire::ScopedSpawner;
pub use scope::{Scope, ScopeFifo, in_place_scope, in_place_scope_fifo, scope, scope_fifo};
pub use shares::{Share, ShareStats, TicketLoan, share};
pub use spawn::{spawn, spawn_fifo, spawn_future};
pub(crate) use stats::{Totals, note_current};
pub use thread_builder::ThreadBuilder;
pub use thread_pool::ThreadPool;
#[doc(hidden)]
pub use yield_now::debug_take_max_queued_jobs;
pub use yield_now::{Yield, yield_local, yield_now};
