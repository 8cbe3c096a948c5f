//! Boxed and reference-counted slices, built from a collected `Vec`.

use std::rc::Rc;
use std::sync::Arc;

use super::FromParallelIterator;
use crate::iter::IntoParallelIterator;

/// Collects the items in order into a boxed slice.
///
/// ```
/// use prorata::prelude::*;
/// let b: Box<[usize]> = (1..4usize).into_par_iter().collect();
/// assert_eq!(&*b, [1, 2, 3]);
/// ```
impl<T: Send> FromParallelIterator<T> for Box<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into_boxed_slice()
    }
}

/// Collects the items in order into a reference-counted slice.
///
/// ```
/// use prorata::prelude::*;
/// let r: std::rc::Rc<[usize]> = (1..4usize).into_par_iter().collect();
/// assert_eq!(&*r, [1, 2, 3]);
/// ```
impl<T: Send> FromParallelIterator<T> for Rc<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

/// Collects the items in order into an atomically reference-counted slice.
///
/// ```
/// use prorata::prelude::*;
/// let a: std::sync::Arc<[usize]> = (1..4usize).into_par_iter().collect();
/// assert_eq!(&*a, [1, 2, 3]);
/// ```
impl<T: Send> FromParallelIterator<T> for Arc<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}
