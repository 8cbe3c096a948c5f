//! The core time of each share of a pool, for `ThreadPool::stats`.

use std::time::Duration;

use super::permits::Permits;

/// The core time one share of a pool received so far: an entry of
/// [`PoolStats::shares`](crate::PoolStats::shares).
///
/// Shares are numbered in their pool from 1 (0 is the pool itself); a dropped share's
/// number goes to a later one. Timelines name shares the same way (`share 2: 100
/// tickets`, see the `trace` feature).
///
/// ```
/// use prorata::prelude::*;
///
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (fg, bg) = (pool.share(300).unwrap(), pool.share(100).unwrap());
/// fg.install(|| (0..100_000u64).into_par_iter().sum::<u64>());
/// let stats = pool.stats();
/// assert_eq!(stats.shares.len(), 2);
/// let first = &stats.shares[0];
/// assert_eq!((first.number, first.parent, first.tickets), (1, 0, 300));
/// assert!(first.core_time > std::time::Duration::ZERO);
/// # drop(bg);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShareCoreTime {
    /// The share's number in its pool (from 1).
    pub number: usize,
    /// The number of the share it was made from (0: the pool itself).
    pub parent: usize,
    /// Its tickets, in its parent's currency.
    pub tickets: u32,
    /// The core time its workers held, as in [`ShareStats::core_time`](crate::ShareStats::core_time).
    pub core_time: Duration,
}

impl Permits {
    /// The core time of every share of these permits' pool so far.
    pub(crate) fn core_times(&self) -> Vec<ShareCoreTime> {
        let now = self.now();
        self.with(|a| {
            a.shares()
                .into_iter()
                .map(|(id, parent, tickets)| ShareCoreTime {
                    number: id.index(),
                    parent,
                    tickets,
                    core_time: Duration::from_nanos(
                        a.stats(id).core_nanos + a.uncharged_nanos(id, now),
                    ),
                })
                .collect()
        })
    }
}
