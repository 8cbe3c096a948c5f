//! `repeat(x)` and `repeat_n(x, n)`: clones of one value.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// An endless parallel iterator of clones of `element`. Finish it with a consumer that
/// stops (such as `find_any`), or bound it with [`Repeat::take`] or [`Repeat::zip`].
///
/// ```
/// use prorata::prelude::*;
/// let it = prorata::iter::repeat(5).take(3);
/// assert_eq!(it.len(), 3);
/// ```
pub fn repeat<T: Clone + Send>(element: T) -> Repeat<T> {
    Repeat { element }
}

/// The iterator made by [`repeat()`].
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::iter::Repeat<u8> = prorata::iter::repeat(1);
/// assert_eq!(it.opt_len(), None);
/// ```
#[derive(Debug, Clone)]
pub struct Repeat<T> {
    element: T,
}

impl<T: Clone + Send> Repeat<T> {
    /// Bounds the repetition to `n` items, making it indexed.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!(prorata::iter::repeat('a').take(4).len(), 4);
    /// ```
    pub fn take(self, n: usize) -> RepeatN<T> {
        repeat_n(self.element, n)
    }

    /// Pairs a clone of the element with each item of `zip_op`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![0; 3];
    /// prorata::iter::repeat(9).zip(&mut v).for_each(|(x, slot)| *slot = x);
    /// assert_eq!(v, [9, 9, 9]);
    /// ```
    pub fn zip<Z>(self, zip_op: Z) -> Zip<RepeatN<T>, Z::Iter>
    where
        Z: IntoParallelIterator<Iter: IndexedParallelIterator>,
    {
        let other = zip_op.into_par_iter();
        let n = other.len();
        self.take(n).zip(other)
    }
}

impl<T: Clone + Send> ParallelIterator for Repeat<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        bridge_unindexed(RepeatProducer(self.element), consumer)
    }
}

struct RepeatProducer<T>(T);

impl<T: Clone + Send> UnindexedProducer for RepeatProducer<T> {
    type Item = T;

    fn split(self) -> (Self, Option<Self>) {
        (RepeatProducer(self.0.clone()), Some(self))
    }

    fn fold_with<F: Folder<T>>(self, folder: F) -> F {
        folder.consume_iter(std::iter::repeat(self.0))
    }
}

/// `n` clones of `element` (the last item is `element` itself).
///
/// ```
/// use prorata::prelude::*;
/// let it = prorata::iter::repeat_n(String::from("x"), 3);
/// assert_eq!(it.len(), 3);
/// ```
pub fn repeat_n<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    RepeatN {
        inner: RepeatNIter {
            element: (n > 0).then_some(element),
            count: n,
        },
    }
}

/// The old name of [`repeat_n()`].
///
/// ```
/// use prorata::prelude::*;
/// #[allow(deprecated)]
/// let it = prorata::iter::repeatn(1, 2);
/// assert_eq!(it.len(), 2);
/// ```
#[deprecated(note = "use `repeat_n`")]
pub fn repeatn<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    repeat_n(element, n)
}

/// The iterator made by [`repeat_n()`].
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::iter::RepeatN<u8> = prorata::iter::repeat_n(0, 8);
/// assert_eq!(it.len(), 8);
/// ```
#[derive(Clone)]
pub struct RepeatN<T> {
    inner: RepeatNIter<T>,
}

impl<T: fmt::Debug> fmt::Debug for RepeatN<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepeatN")
            .field("element", &self.inner.element)
            .field("count", &self.inner.count)
            .finish()
    }
}

impl<T: Clone + Send> ParallelIterator for RepeatN<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.inner.count)
    }

    // No `count` shortcut: as in Rayon, counting makes and drops every item, so a
    // type whose `Clone` or `Drop` has an effect sees the same calls (`len()` is the
    // way to learn the number without making the items).
}

impl<T: Clone + Send> IndexedParallelIterator for RepeatN<T> {
    fn len(&self) -> usize {
        self.inner.count
    }

    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        callback.callback(self.inner)
    }
}

/// Both the producer and its sequential iterator: `count` items, the element held
/// once (`None` when `count` is 0) and cloned for all but the last.
#[derive(Clone)]
struct RepeatNIter<T> {
    element: Option<T>,
    count: usize,
}

impl<T: Clone + Send> Producer for RepeatNIter<T> {
    type Item = T;
    type IntoIter = Self;

    fn into_iter(self) -> Self {
        self
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let none = |count| RepeatNIter {
            element: None,
            count,
        };
        if index == 0 {
            (none(0), self)
        } else if index == self.count {
            (self, none(0))
        } else {
            let left = RepeatNIter {
                element: self.element.clone(),
                count: index,
            };
            let right = RepeatNIter {
                element: self.element,
                count: self.count - index,
            };
            (left, right)
        }
    }
}

impl<T: Clone> Iterator for RepeatNIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self.count {
            0 => None,
            1 => {
                self.count = 0;
                self.element.take()
            }
            _ => {
                self.count -= 1;
                self.element.clone()
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.count, Some(self.count))
    }

    // Skipping makes no clones (a `step_by` above skips with `nth`), as in Rayon;
    // `count` and `last` keep the default, which makes every item, as Rayon's do.
    fn nth(&mut self, n: usize) -> Option<T> {
        if n >= self.count {
            self.count = 0;
            self.element = None;
            return None;
        }
        self.count -= n;
        self.next()
    }
}

impl<T: Clone> DoubleEndedIterator for RepeatNIter<T> {
    fn next_back(&mut self) -> Option<T> {
        self.next()
    }

    fn nth_back(&mut self, n: usize) -> Option<T> {
        self.nth(n)
    }
}

impl<T: Clone> ExactSizeIterator for RepeatNIter<T> {}
