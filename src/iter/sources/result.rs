//! Parallel iterators over `Result`: the `Ok` value, if any.

use crate::iter::plumbing::*;
use crate::iter::*;
use crate::option;

/// Parallel iterator over the `Ok` value of a `Result`, made by
/// `result.into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::result::IntoIter<i32> = Ok::<i32, ()>(3).into_par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    inner: option::IntoIter<T>,
}

/// Parallel iterator over a reference to the `Ok` value of a `Result`, made by
/// `result.par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let r: Result<i32, ()> = Err(());
/// let it: prorata::result::Iter<'_, i32> = r.par_iter();
/// assert_eq!(it.len(), 0);
/// ```
#[derive(Debug)]
pub struct Iter<'a, T> {
    inner: option::IntoIter<&'a T>,
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter {
            inner: self.inner.clone(),
        }
    }
}

/// Parallel iterator over a mutable reference to the `Ok` value of a `Result`, made
/// by `result.par_iter_mut()`.
///
/// ```
/// use prorata::prelude::*;
/// let mut r: Result<i32, ()> = Ok(1);
/// r.par_iter_mut().for_each(|x| *x += 1);
/// assert_eq!(r, Ok(2));
/// ```
#[derive(Debug)]
pub struct IterMut<'a, T> {
    inner: option::IntoIter<&'a mut T>,
}

impl<T: Send, E> IntoParallelIterator for Result<T, E> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            inner: self.ok().into_par_iter(),
        }
    }
}

impl<'a, T: Sync, E> IntoParallelIterator for &'a Result<T, E> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.as_ref().ok().into_par_iter(),
        }
    }
}

impl<'a, T: Send, E> IntoParallelIterator for &'a mut Result<T, E> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IterMut {
            inner: self.as_mut().ok().into_par_iter(),
        }
    }
}

/// All three wrap the `Option` iterator of the `Ok` value.
macro_rules! delegate_to_option {
    ($ty:ident, [$($lt:lifetime)?], $item:ty, $bound:ident) => {
        impl<$($lt,)? T: $bound> ParallelIterator for $ty<$($lt,)? T> {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<$item>>(self, consumer: C) -> C::Result {
                self.inner.drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                self.inner.opt_len()
            }
        }

        impl<$($lt,)? T: $bound> IndexedParallelIterator for $ty<$($lt,)? T> {
            fn len(&self) -> usize {
                self.inner.len()
            }

            fn drive<C: Consumer<$item>>(self, consumer: C) -> C::Result {
                self.inner.drive(consumer)
            }

            fn with_producer<CB: ProducerCallback<$item>>(self, callback: CB) -> CB::Output {
                self.inner.with_producer(callback)
            }
        }
    };
}

delegate_to_option!(IntoIter, [], T, Send);
delegate_to_option!(Iter, ['a], &'a T, Sync);
delegate_to_option!(IterMut, ['a], &'a mut T, Send);
