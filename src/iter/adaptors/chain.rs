//! `chain`: the items of one iterator, then those of another. The two halves run in
//! parallel, each with its part of the downstream consumer.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::chain`].
///
/// ```
/// use prorata::prelude::*;
/// let c: prorata::iter::Chain<_, _> = (0..2usize).into_par_iter().chain(5..8usize);
/// assert_eq!(c.len(), 5);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct Chain<A, B> {
    a: A,
    b: B,
}

impl<A, B> Chain<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        Chain { a, b }
    }
}

impl<A, B> ParallelIterator for Chain<A, B>
where
    A: ParallelIterator,
    B: ParallelIterator<Item = A::Item>,
{
    type Item = A::Item;

    fn drive_unindexed<C: UnindexedConsumer<A::Item>>(self, consumer: C) -> C::Result {
        let Chain { a, b } = self;
        // With a known length, split the consumer where `b` starts (an indexed
        // consumer downstream needs the exact place).
        let (left, right, reducer) = match a.opt_len() {
            Some(len) => consumer.split_at(len),
            None => {
                let left = consumer.split_off_left();
                let reducer = consumer.to_reducer();
                (left, consumer, reducer)
            }
        };
        let (left, right) = crate::join(|| a.drive_unindexed(left), || b.drive_unindexed(right));
        reducer.reduce(left, right)
    }

    fn opt_len(&self) -> Option<usize> {
        self.a.opt_len()?.checked_add(self.b.opt_len()?)
    }
}

impl<A, B> IndexedParallelIterator for Chain<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
{
    fn len(&self) -> usize {
        self.a.len().checked_add(self.b.len()).expect("overflow")
    }

    fn drive<C: Consumer<A::Item>>(self, consumer: C) -> C::Result {
        let Chain { a, b } = self;
        let (left, right, reducer) = consumer.split_at(a.len());
        let (left, right) = crate::join(|| a.drive(left), || b.drive(right));
        reducer.reduce(left, right)
    }

    fn with_producer<CB: ProducerCallback<A::Item>>(self, callback: CB) -> CB::Output {
        let a_len = self.a.len();
        return self.a.with_producer(CallbackA {
            callback,
            a_len,
            b: self.b,
        });

        struct CallbackA<CB, B> {
            callback: CB,
            a_len: usize,
            b: B,
        }

        impl<CB, B> ProducerCallback<B::Item> for CallbackA<CB, B>
        where
            B: IndexedParallelIterator,
            CB: ProducerCallback<B::Item>,
        {
            type Output = CB::Output;

            fn callback<A: Producer<Item = B::Item>>(self, a: A) -> CB::Output {
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a_len: self.a_len,
                    a,
                })
            }
        }

        struct CallbackB<CB, A> {
            callback: CB,
            a_len: usize,
            a: A,
        }

        impl<CB, A> ProducerCallback<A::Item> for CallbackB<CB, A>
        where
            A: Producer,
            CB: ProducerCallback<A::Item>,
        {
            type Output = CB::Output;

            fn callback<B: Producer<Item = A::Item>>(self, b: B) -> CB::Output {
                let a_len = self.a_len;
                self.callback.callback(ChainProducer {
                    a: self.a,
                    a_len,
                    b,
                })
            }
        }
    }
}

struct ChainProducer<A, B> {
    a: A,
    /// How many items `a` holds.
    a_len: usize,
    b: B,
}

impl<A, B> Producer for ChainProducer<A, B>
where
    A: Producer,
    B: Producer<Item = A::Item>,
{
    type Item = A::Item;
    type IntoIter = ChainSeq<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        ChainSeq(self.a.into_iter().chain(self.b.into_iter()))
    }

    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }

    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        if index <= self.a_len {
            let (a_left, a_right) = self.a.split_at(index);
            let (b_left, b_right) = self.b.split_at(0);
            let left = ChainProducer {
                a: a_left,
                a_len: index,
                b: b_left,
            };
            let right = ChainProducer {
                a: a_right,
                a_len: self.a_len - index,
                b: b_right,
            };
            (left, right)
        } else {
            let (a_left, a_right) = self.a.split_at(self.a_len);
            let (b_left, b_right) = self.b.split_at(index - self.a_len);
            let left = ChainProducer {
                a: a_left,
                a_len: self.a_len,
                b: b_left,
            };
            let right = ChainProducer {
                a: a_right,
                a_len: 0,
                b: b_right,
            };
            (left, right)
        }
    }

    fn fold_with<F: Folder<A::Item>>(self, folder: F) -> F {
        let folder = self.a.fold_with(folder);
        if folder.full() {
            return folder;
        }
        self.b.fold_with(folder)
    }
}

/// `std::iter::Chain` of two exact-size iterators, which is exact-size too (std does
/// not say so, because the sum could overflow; a producer's pieces cannot).
struct ChainSeq<A, B>(std::iter::Chain<A, B>);

impl<A, B> Iterator for ChainSeq<A, B>
where
    A: Iterator,
    B: Iterator<Item = A::Item>,
{
    type Item = A::Item;

    fn next(&mut self) -> Option<A::Item> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }

    fn fold<Acc, G: FnMut(Acc, A::Item) -> Acc>(self, init: Acc, g: G) -> Acc {
        self.0.fold(init, g)
    }
}

impl<A, B> DoubleEndedIterator for ChainSeq<A, B>
where
    A: DoubleEndedIterator,
    B: DoubleEndedIterator<Item = A::Item>,
{
    fn next_back(&mut self) -> Option<A::Item> {
        self.0.next_back()
    }

    fn rfold<Acc, G: FnMut(Acc, A::Item) -> Acc>(self, init: Acc, g: G) -> Acc {
        self.0.rfold(init, g)
    }
}

impl<A, B> ExactSizeIterator for ChainSeq<A, B>
where
    A: ExactSizeIterator,
    B: ExactSizeIterator<Item = A::Item>,
{
}
