//! `interleave` and `interleave_shortest`: items taken alternately from two indexed
//! iterators, starting with the first.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::interleave`]: alternates while both
/// sides have items, then yields the rest of the longer one.
///
/// ```
/// use prorata::prelude::*;
/// let i: prorata::iter::Interleave<_, _> = (0..2usize).into_par_iter().interleave(5..9usize);
/// assert_eq!(i.len(), 6);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Interleave<I, J> {
    i: I,
    j: J,
}

impl<I, J> Interleave<I, J> {
    pub(crate) fn new(i: I, j: J) -> Self {
        Interleave { i, j }
    }
}

impl<I, J> ParallelIterator for Interleave<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I, J> IndexedParallelIterator for Interleave<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    fn len(&self) -> usize {
        self.i.len().checked_add(self.j.len()).expect("overflow")
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let (i_len, j_len) = (self.i.len(), self.j.len());
        return self.i.with_producer(CallbackI {
            callback,
            j: self.j,
            i_len,
            j_len,
        });

        struct CallbackI<CB, J> {
            callback: CB,
            j: J,
            i_len: usize,
            j_len: usize,
        }

        impl<CB, J> ProducerCallback<J::Item> for CallbackI<CB, J>
        where
            J: IndexedParallelIterator,
            CB: ProducerCallback<J::Item>,
        {
            type Output = CB::Output;

            fn callback<PI: Producer<Item = J::Item>>(self, i: PI) -> CB::Output {
                self.j.with_producer(CallbackJ {
                    callback: self.callback,
                    i,
                    i_len: self.i_len,
                    j_len: self.j_len,
                })
            }
        }

        struct CallbackJ<CB, PI> {
            callback: CB,
            i: PI,
            i_len: usize,
            j_len: usize,
        }

        impl<CB, PI> ProducerCallback<PI::Item> for CallbackJ<CB, PI>
        where
            PI: Producer,
            CB: ProducerCallback<PI::Item>,
        {
            type Output = CB::Output;

            fn callback<PJ: Producer<Item = PI::Item>>(self, j: PJ) -> CB::Output {
                self.callback.callback(InterleaveProducer {
                    i: self.i,
                    j,
                    i_len: self.i_len,
                    j_len: self.j_len,
                    i_next: true,
                })
            }
        }
    }
}

/// A piece of the interleaving: `i_next` says which side its first item comes from.
struct InterleaveProducer<I, J> {
    i: I,
    j: J,
    i_len: usize,
    j_len: usize,
    i_next: bool,
}

impl<I, J> Producer for InterleaveProducer<I, J>
where
    I: Producer,
    J: Producer<Item = I::Item>,
{
    type Item = I::Item;
    type IntoIter = InterleaveSeq<I::IntoIter, J::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        InterleaveSeq {
            i: self.i.into_iter(),
            j: self.j.into_iter(),
            i_next: self.i_next,
        }
    }

    fn min_len(&self) -> usize {
        self.i.min_len().max(self.j.min_len())
    }

    fn max_len(&self) -> usize {
        self.i.max_len().min(self.j.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        // While both sides last, the first `index` items take half from each
        // (the odd one from the side that starts); then the longer side fills in.
        let from_starter = index.div_ceil(2);
        let (mut i_count, mut j_count) = if self.i_next {
            (from_starter, index - from_starter)
        } else {
            (index - from_starter, from_starter)
        };
        if i_count > self.i_len {
            i_count = self.i_len;
            j_count = index - i_count;
        } else if j_count > self.j_len {
            j_count = self.j_len;
            i_count = index - j_count;
        }
        let (i_left, i_right) = self.i.split_at(i_count);
        let (j_left, j_right) = self.j.split_at(j_count);
        let left = InterleaveProducer {
            i: i_left,
            j: j_left,
            i_len: i_count,
            j_len: j_count,
            i_next: self.i_next,
        };
        let right = InterleaveProducer {
            i: i_right,
            j: j_right,
            i_len: self.i_len - i_count,
            j_len: self.j_len - j_count,
            i_next: self.i_next == (index % 2 == 0),
        };
        (left, right)
    }
}

/// The sequential interleaving of one piece.
struct InterleaveSeq<I, J> {
    i: I,
    j: J,
    i_next: bool,
}

impl<I, J> Iterator for InterleaveSeq<I, J>
where
    I: ExactSizeIterator,
    J: ExactSizeIterator<Item = I::Item>,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = if self.i_next {
            self.i.next()
        } else {
            self.j.next()
        };
        match item {
            Some(item) => {
                self.i_next = !self.i_next;
                Some(item)
            }
            // The side whose turn it is has run out: the other one goes on alone.
            None if self.i_next => self.j.next(),
            None => self.i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.i.len() + self.j.len();
        (n, Some(n))
    }
}

impl<I, J> DoubleEndedIterator for InterleaveSeq<I, J>
where
    I: DoubleEndedIterator + ExactSizeIterator,
    J: DoubleEndedIterator + ExactSizeIterator<Item = I::Item>,
{
    fn next_back(&mut self) -> Option<I::Item> {
        // The last item belongs to the longer side; on a tie, to the side that
        // does not start.
        let (i_len, j_len) = (self.i.len(), self.j.len());
        let last_is_i = if self.i_next {
            i_len > j_len
        } else {
            i_len >= j_len
        };
        if last_is_i {
            self.i.next_back()
        } else {
            self.j.next_back()
        }
    }
}

impl<I, J> ExactSizeIterator for InterleaveSeq<I, J>
where
    I: ExactSizeIterator,
    J: ExactSizeIterator<Item = I::Item>,
{
}

/// The iterator made by [`IndexedParallelIterator::interleave_shortest`]: alternates
/// until the side whose turn it is has no items left.
///
/// ```
/// use prorata::prelude::*;
/// let i: prorata::iter::InterleaveShortest<_, _> =
///     (0..2usize).into_par_iter().interleave_shortest(5..9usize);
/// assert_eq!(i.len(), 4);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct InterleaveShortest<I, J> {
    interleave: Interleave<Take<I>, Take<J>>,
}

impl<I, J> InterleaveShortest<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    pub(crate) fn new(i: I, j: J) -> Self {
        let (i_len, j_len) = (i.len(), j.len());
        let i_count = i_len.min(j_len.saturating_add(1));
        let j_count = j_len.min(i_len);
        InterleaveShortest {
            interleave: Interleave::new(i.take(i_count), j.take(j_count)),
        }
    }
}

impl<I, J> ParallelIterator for InterleaveShortest<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self.interleave, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.interleave.len())
    }
}

impl<I, J> IndexedParallelIterator for InterleaveShortest<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    fn len(&self) -> usize {
        self.interleave.len()
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self.interleave, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        self.interleave.with_producer(callback)
    }
}
