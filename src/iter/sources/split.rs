//! `split(data, splitter)`: a parallel iterator over the pieces a user function cuts
//! `data` into.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// Splits `data` recursively with `splitter` (which returns the data and, if it could
/// cut it, a second piece) as long as the driver wants more pieces, and yields the
/// pieces, in order.
///
/// ```
/// use prorata::prelude::*;
/// let pieces = prorata::iter::split(0..1000u32, |r| {
///     if r.len() < 100 {
///         return (r, None);
///     }
///     let mid = r.start + r.len() as u32 / 2;
///     (r.start..mid, Some(mid..r.end))
/// });
/// let total = std::sync::atomic::AtomicU32::new(0);
/// pieces.for_each(|r| { total.fetch_add(r.sum::<u32>(), std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(total.into_inner(), (0..1000).sum());
/// ```
pub fn split<D, S>(data: D, splitter: S) -> Split<D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync,
{
    Split { data, splitter }
}

/// The iterator made by [`split()`].
///
/// ```
/// let s: prorata::iter::Split<u8, _> = prorata::iter::split(3u8, |x| (x, None));
/// # let _ = s;
/// ```
#[derive(Clone)]
pub struct Split<D, S> {
    data: D,
    splitter: S,
}

impl<D: fmt::Debug, S> fmt::Debug for Split<D, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Split").field("data", &self.data).finish()
    }
}

impl<D, S> ParallelIterator for Split<D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync + Send,
{
    type Item = D;

    fn drive_unindexed<C: UnindexedConsumer<D>>(self, consumer: C) -> C::Result {
        let producer = SplitProducer {
            data: self.data,
            splitter: &self.splitter,
        };
        bridge_unindexed(producer, consumer)
    }
}

struct SplitProducer<'s, D, S> {
    data: D,
    splitter: &'s S,
}

impl<D, S> UnindexedProducer for SplitProducer<'_, D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync,
{
    type Item = D;

    fn split(self) -> (Self, Option<Self>) {
        let splitter = self.splitter;
        let (left, right) = splitter(self.data);
        let right = right.map(|data| SplitProducer { data, splitter });
        (
            SplitProducer {
                data: left,
                splitter,
            },
            right,
        )
    }

    fn fold_with<F: Folder<D>>(self, folder: F) -> F {
        folder.consume(self.data)
    }
}
