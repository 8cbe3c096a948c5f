//! Counters of what the soak did, printed at the end.

use std::sync::atomic::{AtomicU64, Ordering};

macro_rules! counters {
    ($($name:ident: $text:literal),* $(,)?) => {
        /// What the soak did so far.
        pub struct Stats { $(pub $name: AtomicU64,)* }

        pub static STATS: Stats = Stats { $($name: AtomicU64::new(0),)* };

        impl Stats {
            /// Every counter with its description.
            pub fn rows(&self) -> Vec<(&'static str, u64)> {
                vec![$(($text, self.$name.load(Ordering::Relaxed)),)*]
            }
        }
    };
}

counters! {
    ops: "operations (top-level and nested)",
    nested: "  of which nested in another operation",
    join_trees: "  join trees",
    joins: "    joins inside them",
    scopes: "  scope/spawn trees",
    scope_spawns: "    spawns inside them",
    iters: "  par_iter pipelines",
    sorts: "  parallel sorts",
    broadcasts: "  broadcasts",
    spawns: "  spawn / spawn_fifo / spawn_broadcast batches",
    spawned_jobs: "    jobs spawned",
    yields: "  yield_now / yield_local calls",
    cross_installs: "  cross-pool / cross-share installs",
    isolated: "  nested operations inside isolate",
    blocked: "  nested operations inside block_in_place",
    pools_built: "pools built",
    pools_dropped_in_flight: "  dropped with work in flight",
    shares_made: "shares made",
    shares_nested: "  of which currencies (a share of a share)",
    shares_dropped_in_flight: "  dropped with work in flight",
    retickets: "set_tickets calls",
    share_errors: "  answered with an expected error",
    items: "tracked items made (each dropped exactly once)",
    panics_to_caller: "injected panics meant for a caller",
    seen_by_caller: "  seen by the caller",
    panics_to_handler: "injected panics meant for a panic handler",
    seen_by_handler: "  seen by the panic handler",
}

impl Stats {
    pub fn add(&self, counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

/// The counters at one moment, so a run reports its own deltas.
pub struct Snapshot(Vec<(&'static str, u64)>);

impl Snapshot {
    pub fn take() -> Snapshot {
        Snapshot(STATS.rows())
    }

    /// Rows of what happened since `self`.
    pub fn since(&self) -> Vec<(&'static str, u64)> {
        STATS
            .rows()
            .into_iter()
            .zip(&self.0)
            .map(|((name, now), (_, then))| (name, now - then))
            .collect()
    }
}
