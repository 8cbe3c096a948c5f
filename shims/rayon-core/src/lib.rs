//! rayon-core's public API, every path of rayon-core 1.13, re-exported from prorata.
//!
//! Patched in with `[patch.crates-io]` beside the `rayon` shim, this crate stands for
//! `rayon-core` in a whole dependency graph, so that crates that use rayon-core directly
//! (for `join`, `scope` or a `ThreadPool`) share prorata's pool too. Types are
//! prorata's: `rayon_core::ThreadPool` *is* `prorata::ThreadPool`.
#![no_std]
#![allow(deprecated)]

pub use prorata::{BroadcastContext, broadcast, spawn_broadcast};
pub use prorata::{Configuration, initialize};
pub use prorata::{FnContext, ThreadBuilder, ThreadPool, ThreadPoolBuildError};
pub use prorata::{Scope, in_place_scope, scope};
pub use prorata::{ScopeFifo, in_place_scope_fifo, scope_fifo};
pub use prorata::{ThreadPoolBuilder, Yield, yield_local, yield_now};
pub use prorata::{current_num_threads, current_thread_has_pending_tasks, current_thread_index};
pub use prorata::{join, join_context, max_num_threads, spawn, spawn_fifo};
