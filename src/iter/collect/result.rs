//! `Result<C, E>`: an error as soon as any item is an error.

use std::sync::{Mutex, PoisonError};

use super::FromParallelIterator;
use crate::iter::{IntoParallelIterator, ParallelIterator};

/// Collects the `Ok` values into `C`, or returns an error if any item is `Err`; the
/// iterator then stops early, and the values collected so far are dropped. With
/// several errors, which one is returned depends on the scheduling (as in Rayon).
///
/// ```
/// use prorata::prelude::*;
/// let parsed: Result<Vec<u8>, String> = ["1", "2", "x"][..]
///     .par_iter()
///     .map(|s| s.parse::<u8>().map_err(|_| format!("bad: {s}")))
///     .collect();
/// assert_eq!(parsed, Err("bad: x".to_string()));
/// ```
impl<C, T, E> FromParallelIterator<Result<T, E>> for Result<C, E>
where
    C: FromParallelIterator<T>,
    T: Send,
    E: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Result<T, E>>,
    {
        let first_error = Mutex::new(None);
        let keep_error = |item: Result<T, E>| match item {
            Ok(value) => Some(value),
            Err(error) => {
                // Whoever holds the lock is storing an error already; ours may go.
                if let Ok(mut slot) = first_error.try_lock() {
                    slot.get_or_insert(error);
                }
                None
            }
        };
        // `while_some` stops every worker soon after one of them meets an error.
        let oks = par_iter.into_par_iter().map(keep_error).while_some();
        let collection = C::from_par_iter(oks);
        // The lock is only poisoned by a panic, which has reached the caller already.
        match first_error
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            None => Ok(collection),
            Some(error) => Err(error),
        }
    }
}
