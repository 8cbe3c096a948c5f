//! Parallel iterators over `Option`: zero or one item.

use crate::iter::plumbing::*;
use crate::iter::*;

/// Parallel iterator over the item of an `Option`, made by `option.into_par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::option::IntoIter<i32> = Some(3).into_par_iter();
/// assert_eq!(it.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct IntoIter<T> {
    opt: Option<T>,
}

/// Parallel iterator over a reference to the item of an `Option`, made by
/// `option.par_iter()`.
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::option::Iter<'_, i32> = None::<i32>.par_iter();
/// assert_eq!(it.len(), 0);
/// ```
#[derive(Debug)]
pub struct Iter<'a, T> {
    inner: IntoIter<&'a T>,
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter {
            inner: self.inner.clone(),
        }
    }
}

/// Parallel iterator over a mutable reference to the item of an `Option`, made by
/// `option.par_iter_mut()`.
///
/// ```
/// use prorata::prelude::*;
/// let mut o = Some(1);
/// o.par_iter_mut().for_each(|x| *x += 1);
/// assert_eq!(o, Some(2));
/// ```
#[derive(Debug)]
pub struct IterMut<'a, T> {
    inner: IntoIter<&'a mut T>,
}

impl<T: Send> IntoParallelIterator for Option<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter { opt: self }
    }
}

impl<'a, T: Sync> IntoParallelIterator for &'a Option<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.as_ref().into_par_iter(),
        }
    }
}

impl<'a, T: Send> IntoParallelIterator for &'a mut Option<T> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IterMut {
            inner: self.as_mut().into_par_iter(),
        }
    }
}

impl<T: Send> ParallelIterator for IntoIter<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn len(&self) -> usize {
        usize::from(self.opt.is_some())
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        let mut folder = consumer.into_folder();
        if let Some(item) = self.opt {
            folder = folder.consume(item);
        }
        folder.complete()
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        callback.callback(OptionProducer { opt: self.opt })
    }
}

/// `Iter` and `IterMut` are `IntoIter`s of references.
macro_rules! delegate_to_inner {
    ($ty:ident, $item:ty, $bound:ident) => {
        impl<'a, T: $bound> ParallelIterator for $ty<'a, T> {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<$item>>(self, consumer: C) -> C::Result {
                self.inner.drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                self.inner.opt_len()
            }
        }

        impl<'a, T: $bound> IndexedParallelIterator for $ty<'a, T> {
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

delegate_to_inner!(Iter, &'a T, Sync);
delegate_to_inner!(IterMut, &'a mut T, Send);

/// At most one item: splitting at 0 puts it right, anywhere else left.
struct OptionProducer<T> {
    opt: Option<T>,
}

impl<T: Send> Producer for OptionProducer<T> {
    type Item = T;
    type IntoIter = std::option::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.opt.into_iter()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let none = OptionProducer { opt: None };
        if index == 0 {
            (none, self)
        } else {
            (self, none)
        }
    }
}
