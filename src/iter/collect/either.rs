//! `Either<L, R>` extends whichever collection it holds.

use either::Either;

use super::ParallelExtend;
use crate::iter::IntoParallelIterator;

/// Extends the collection on the side that is present, as Rayon does.
///
/// ```
/// use either::Either;
/// use prorata::prelude::*;
/// let mut either: Either<Vec<u8>, std::collections::BTreeSet<u8>> = Either::Left(vec![1]);
/// either.par_extend([2u8, 3].into_par_iter());
/// assert_eq!(either, Either::Left(vec![1, 2, 3]));
/// ```
impl<L, R, T> ParallelExtend<T> for Either<L, R>
where
    L: ParallelExtend<T>,
    R: ParallelExtend<T>,
    T: Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        match self {
            Either::Left(collection) => collection.par_extend(par_iter),
            Either::Right(collection) => collection.par_extend(par_iter),
        }
    }
}
