//! Rayon's public API, every path of rayon 1.12, re-exported from prorata.
//!
//! Patched in with `[patch.crates-io]`, this crate stands for `rayon` in a whole
//! dependency graph: every crate that uses Rayon (a codec, a dataframe, a search
//! library) then runs its parallel work on prorata's pool, the same pool as the
//! program's own `prorata` calls, so that one set of workers serves all of it and ticket
//! shares divide all of it. Types are prorata's: `rayon::ThreadPool` *is*
//! `prorata::ThreadPool`, and `rayon::prelude::*` brings prorata's traits.
//!
//! ```toml
//! [patch.crates-io]
//! rayon = { path = "path/to/prorata/shims/rayon" }
//! rayon-core = { path = "path/to/prorata/shims/rayon-core" }
//! ```
#![no_std]

pub use prorata::{array, collections, iter, option, prelude, range, range_inclusive};
pub use prorata::{result, slice, str, string, vec};

pub use prorata::{BroadcastContext, broadcast, spawn_broadcast};
pub use prorata::{FnContext, ThreadBuilder, ThreadPool, ThreadPoolBuildError};
pub use prorata::{Scope, in_place_scope, scope};
pub use prorata::{ScopeFifo, in_place_scope_fifo, scope_fifo};
pub use prorata::{ThreadPoolBuilder, Yield, yield_local, yield_now};
pub use prorata::{current_num_threads, current_thread_index, max_num_threads};
pub use prorata::{join, join_context, spawn, spawn_fifo};
