//! `zip` and `zip_eq`: pairs of items from two indexed iterators.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::zip`]: as long as the shorter side.
///
/// ```
/// use prorata::prelude::*;
/// let z: prorata::iter::Zip<_, _> = (0..3usize).into_par_iter().zip(0..5usize);
/// assert_eq!(z.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Zip<A, B> {
    a: A,
    b: B,
}

impl<A, B> Zip<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        Zip { a, b }
    }
}

impl<A, B> ParallelIterator for Zip<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item);

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B> IndexedParallelIterator for Zip<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn len(&self) -> usize {
        self.a.len().min(self.b.len())
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let len = self.len();
        return self.a.with_producer(CallbackA {
            callback,
            b: self.b,
            len,
        });

        struct CallbackA<CB, B> {
            callback: CB,
            b: B,
            len: usize,
        }

        impl<CB, T, B> ProducerCallback<T> for CallbackA<CB, B>
        where
            B: IndexedParallelIterator,
            CB: ProducerCallback<(T, B::Item)>,
        {
            type Output = CB::Output;

            fn callback<PA: Producer<Item = T>>(self, a: PA) -> CB::Output {
                // Both sides are cut to the common length, so every piece pairs up.
                let (a, _) = a.split_at(self.len);
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a,
                    len: self.len,
                })
            }
        }

        struct CallbackB<CB, PA> {
            callback: CB,
            a: PA,
            len: usize,
        }

        impl<CB, T, PA> ProducerCallback<T> for CallbackB<CB, PA>
        where
            PA: Producer,
            CB: ProducerCallback<(PA::Item, T)>,
        {
            type Output = CB::Output;

            fn callback<PB: Producer<Item = T>>(self, b: PB) -> CB::Output {
                let (b, _) = b.split_at(self.len);
                self.callback.callback(ZipProducer { a: self.a, b })
            }
        }
    }
}

struct ZipProducer<A, B> {
    a: A,
    b: B,
}

impl<A: Producer, B: Producer> Producer for ZipProducer<A, B> {
    type Item = (A::Item, B::Item);
    type IntoIter = std::iter::Zip<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.a.into_iter().zip(self.b.into_iter())
    }

    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }

    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (a_left, a_right) = self.a.split_at(index);
        let (b_left, b_right) = self.b.split_at(index);
        (
            ZipProducer {
                a: a_left,
                b: b_left,
            },
            ZipProducer {
                a: a_right,
                b: b_right,
            },
        )
    }
}

/// The iterator made by [`IndexedParallelIterator::zip_eq`]: a [`Zip`] whose sides were
/// checked to have the same length.
///
/// ```
/// use prorata::prelude::*;
/// let z: prorata::iter::ZipEq<_, _> = (0..3usize).into_par_iter().zip_eq(3..6usize);
/// assert_eq!(z.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct ZipEq<A, B> {
    zip: Zip<A, B>,
}

impl<A: IndexedParallelIterator, B: IndexedParallelIterator> ZipEq<A, B> {
    #[track_caller]
    pub(crate) fn new(a: A, b: B) -> Self {
        let (a_len, b_len) = (a.len(), b.len());
        assert!(
            a_len == b_len,
            "zip_eq: iterators must have the same length (left has {a_len} items, right has {b_len})"
        );
        ZipEq {
            zip: Zip::new(a, b),
        }
    }
}

impl<A, B> ParallelIterator for ZipEq<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item);

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self.zip, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.zip.len())
    }
}

impl<A, B> IndexedParallelIterator for ZipEq<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn len(&self) -> usize {
        self.zip.len()
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self.zip, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        self.zip.with_producer(callback)
    }
}
