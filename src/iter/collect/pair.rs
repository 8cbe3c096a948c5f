//! Pairs of collections: collecting or extending with pairs (like `unzip`) or with
//! `Either`s (like `partition_map`), in a single pass.

use either::Either;

use super::unzip::{PartitionMap, Unzip, split_into};
use super::{FromParallelIterator, ParallelExtend};
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// Extends the first collection with the first items of the pairs and the second with
/// the second items, as `unzip` does.
///
/// ```
/// use prorata::prelude::*;
/// let mut pair = (vec![0], String::new());
/// pair.par_extend((1..4usize).into_par_iter().map(|x| (x, 'a')));
/// assert_eq!(pair, (vec![0, 1, 2, 3], "aaa".to_string()));
/// ```
impl<A, B, FromA, FromB> ParallelExtend<(A, B)> for (FromA, FromB)
where
    A: Send,
    B: Send,
    FromA: Send + ParallelExtend<A>,
    FromB: Send + ParallelExtend<B>,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (A, B)>,
    {
        split_into(&mut self.0, &mut self.1, par_iter.into_par_iter(), Unzip);
    }
}

/// Extends the first collection with the `Left` items and the second with the
/// `Right` items, as `partition_map` does.
///
/// ```
/// use either::Either;
/// use prorata::prelude::*;
/// let mut pair: (Vec<usize>, Vec<usize>) = (vec![], vec![]);
/// pair.par_extend((0..6usize).into_par_iter().map(|x| {
///     if x % 3 == 0 { Either::Left(x) } else { Either::Right(x) }
/// }));
/// assert_eq!(pair, (vec![0, 3], vec![1, 2, 4, 5]));
/// ```
impl<L, R, A, B> ParallelExtend<Either<L, R>> for (A, B)
where
    L: Send,
    R: Send,
    A: Send + ParallelExtend<L>,
    B: Send + ParallelExtend<R>,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = Either<L, R>>,
    {
        let route = PartitionMap(std::convert::identity);
        split_into(&mut self.0, &mut self.1, par_iter.into_par_iter(), route);
    }
}

/// Collects the first items of the pairs into one collection and the second items into
/// the other, as `unzip` does, but for any collections that can be collected.
///
/// ```
/// use prorata::prelude::*;
/// let (evens, text): (Vec<usize>, String) =
///     (0..3usize).into_par_iter().map(|x| (2 * x, 'z')).collect();
/// assert_eq!((evens, text.as_str()), (vec![0, 2, 4], "zzz"));
/// ```
impl<A, B, FromA, FromB> FromParallelIterator<(A, B)> for (FromA, FromB)
where
    A: Send,
    B: Send,
    FromA: Send + FromParallelIterator<A>,
    FromB: Send + FromParallelIterator<B>,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (A, B)>,
    {
        let (a, b): (CollectOnce<FromA>, CollectOnce<FromB>) = par_iter.into_par_iter().unzip();
        (a.into_inner(), b.into_inner())
    }
}

/// Collects the `Left` items into one collection and the `Right` items into the
/// other, as `partition_map` does, but for any collections that can be collected.
///
/// ```
/// use either::Either;
/// use prorata::prelude::*;
/// let (small, big): (Vec<usize>, Vec<usize>) = (0..5usize)
///     .into_par_iter()
///     .map(|x| if x < 2 { Either::Left(x) } else { Either::Right(x) })
///     .collect();
/// assert_eq!((small, big), (vec![0, 1], vec![2, 3, 4]));
/// ```
impl<L, R, A, B> FromParallelIterator<Either<L, R>> for (A, B)
where
    L: Send,
    R: Send,
    A: Send + FromParallelIterator<L>,
    B: Send + FromParallelIterator<R>,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Either<L, R>>,
    {
        let (a, b): (CollectOnce<A>, CollectOnce<B>) = par_iter
            .into_par_iter()
            .partition_map(std::convert::identity);
        (a.into_inner(), b.into_inner())
    }
}

/// Adapts a collection that can only be collected to the `ParallelExtend` interface
/// that `unzip` needs: it is extended exactly once, from empty.
struct CollectOnce<C>(Option<C>);

impl<C> Default for CollectOnce<C> {
    fn default() -> Self {
        CollectOnce(None)
    }
}

impl<C> CollectOnce<C> {
    fn into_inner(self) -> C {
        self.0.expect("unzip extends each side exactly once")
    }
}

impl<T: Send, C: Send + FromParallelIterator<T>> ParallelExtend<T> for CollectOnce<C> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        debug_assert!(self.0.is_none(), "extended twice");
        self.0 = Some(C::from_par_iter(par_iter));
    }
}
