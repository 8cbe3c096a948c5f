//! `Cow<'_, C>`: always collected into the owned form.

use std::borrow::Cow;

use super::FromParallelIterator;
use crate::iter::IntoParallelIterator;

/// Collects into `C::Owned` and wraps it as `Cow::Owned`, for any `C` whose owned form
/// can be collected (`str`, `[T]`, ...).
///
/// ```
/// use prorata::prelude::*;
/// use std::borrow::Cow;
/// let c: Cow<'_, [usize]> = (0..3usize).into_par_iter().collect();
/// assert!(matches!(c, Cow::Owned(_)));
/// assert_eq!(&*c, [0, 1, 2]);
/// ```
impl<C, T> FromParallelIterator<T> for Cow<'_, C>
where
    C: ToOwned<Owned: FromParallelIterator<T>> + ?Sized,
    T: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Cow::Owned(C::Owned::from_par_iter(par_iter))
    }
}
