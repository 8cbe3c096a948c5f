//! The work-stealing pool: workers, `join`, `scope`, `spawn`, `broadcast`, the builder
//! and the global pool.
//!
//! One file per concept: `registry` (a pool's shared state), `worker` (per-thread state,
//! finding work, waiting), `job` (type-erased jobs), `latch` (completion signals), `sleep`
//! (idle workers and wake-ups), `preempt` (the hooks for shares), `deque` lives in
//! `crate::deque`.

mod broadcast;
mod builder;
mod global;
mod job;
mod join;
mod latch;
mod preempt;
mod registry;
mod scope;
mod sleep;
mod spawn;
mod sync;
mod thread_pool;
mod unwind;
mod worker;
mod yield_now;

#[cfg(all(test, loom))]
mod loom_tests;

pub use broadcast::{BroadcastContext, broadcast, spawn_broadcast};
pub use builder::{
    ThreadBuilder, ThreadPoolBuildError, ThreadPoolBuildErrorKind, ThreadPoolBuilder,
};
pub(crate) use global::global_registry;
pub use global::{current_num_threads, current_thread_index, max_num_threads};
pub use join::{FnContext, join, join_context};
pub(crate) use preempt::enable_shares;
#[allow(unused_imports)] // used by the iterator layer
pub(crate) use preempt::safe_point;
pub use scope::{Scope, ScopeFifo, in_place_scope, in_place_scope_fifo, scope, scope_fifo};
pub use spawn::{spawn, spawn_fifo};
pub use thread_pool::ThreadPool;
#[doc(hidden)]
pub use yield_now::debug_take_max_queued_jobs;
pub use yield_now::{Yield, yield_local, yield_now};
