//! `Option<C>`: `None` as soon as any item is `None`.

use std::sync::atomic::{AtomicBool, Ordering};

use super::FromParallelIterator;
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// Collects the `Some` items into `C`, or returns `None` if any item is `None`; the
/// iterator then stops early, and the items collected so far are dropped.
///
/// ```
/// use prorata::prelude::*;
/// let all: Option<Vec<usize>> = (0..5usize).into_par_iter().map(Some).collect();
/// assert_eq!(all, Some(vec![0, 1, 2, 3, 4]));
/// let gap: Option<Vec<usize>> = (0..5usize)
///     .into_par_iter()
///     .map(|x| if x == 3 { None } else { Some(x) })
///     .collect();
/// assert_eq!(gap, None);
/// ```
impl<C, T> FromParallelIterator<Option<T>> for Option<C>
where
    C: FromParallelIterator<T>,
    T: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Option<T>>,
    {
        let found_none = AtomicBool::new(false);
        let note_none = |item: &Option<T>| {
            if item.is_none() {
                found_none.store(true, Ordering::Relaxed);
            }
        };
        // `while_some` stops every worker soon after one of them meets a `None`.
        let somes = par_iter.into_par_iter().inspect(note_none).while_some();
        let collection = C::from_par_iter(somes);
        // Relaxed suffices: every worker that could set the flag has finished, and
        // joining with it ordered its writes before this read.
        (!found_none.load(Ordering::Relaxed)).then_some(collection)
    }
}
