//! `()`: runs the iterator for its effects. Useful inside `Option` and `Result`, e.g.
//! to collect a `Result<(), E>` from fallible steps.

use super::{FromParallelIterator, ParallelExtend};
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// Runs every item; the unit items collapse into one.
///
/// ```
/// use prorata::prelude::*;
/// let ok: Result<(), String> = (0..10usize)
///     .into_par_iter()
///     .map(|x| if x < 10 { Ok(()) } else { Err(format!("{x} is too big")) })
///     .collect();
/// assert_eq!(ok, Ok(()));
/// ```
impl FromParallelIterator<()> for () {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = ()>,
    {
        par_iter.into_par_iter().for_each(drop);
    }
}

/// Runs every item; there is nothing to keep.
///
/// ```
/// use prorata::prelude::*;
/// let mut unit = ();
/// unit.par_extend((0..4usize).into_par_iter().map(|_| ()));
/// ```
impl ParallelExtend<()> for () {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = ()>,
    {
        par_iter.into_par_iter().for_each(drop);
    }
}
