//! `Either<L, R>` of two parallel iterators with the same items is a parallel
//! iterator (and an indexed one when both sides are).

use either::Either;

use crate::iter::plumbing::*;
use crate::iter::*;

/// ```
/// use prorata::prelude::*;
/// use prorata::iter::Either;
/// let it: Either<_, prorata::range::Iter<usize>> = Either::Left((0..3usize).into_par_iter());
/// assert_eq!(it.len(), 3);
/// ```
impl<L, R> ParallelIterator for Either<L, R>
where
    L: ParallelIterator,
    R: ParallelIterator<Item = L::Item>,
{
    type Item = L::Item;

    fn drive_unindexed<C: UnindexedConsumer<L::Item>>(self, consumer: C) -> C::Result {
        match self {
            Either::Left(left) => left.drive_unindexed(consumer),
            Either::Right(right) => right.drive_unindexed(consumer),
        }
    }

    fn opt_len(&self) -> Option<usize> {
        self.as_ref().either(L::opt_len, R::opt_len)
    }
}

/// ```
/// use prorata::prelude::*;
/// use prorata::iter::Either;
/// let it: Either<prorata::range::Iter<usize>, _> = Either::Right((0..5usize).into_par_iter());
/// assert_eq!(it.len(), 5);
/// ```
impl<L, R> IndexedParallelIterator for Either<L, R>
where
    L: IndexedParallelIterator,
    R: IndexedParallelIterator<Item = L::Item>,
{
    fn len(&self) -> usize {
        self.as_ref().either(L::len, R::len)
    }

    fn drive<C: Consumer<L::Item>>(self, consumer: C) -> C::Result {
        match self {
            Either::Left(left) => left.drive(consumer),
            Either::Right(right) => right.drive(consumer),
        }
    }

    fn with_producer<CB: ProducerCallback<L::Item>>(self, callback: CB) -> CB::Output {
        match self {
            Either::Left(left) => left.with_producer(callback),
            Either::Right(right) => right.with_producer(callback),
        }
    }
}
