//! `step_by`: every `step`-th item, starting with the first.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`IndexedParallelIterator::step_by`].
///
/// ```
/// use prorata::prelude::*;
/// let s: prorata::iter::StepBy<_> = (0..10usize).into_par_iter().step_by(3);
/// assert_eq!(s.len(), 4);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct StepBy<I> {
    base: I,
    step: usize,
}

impl<I> StepBy<I> {
    #[track_caller]
    pub(crate) fn new(base: I, step: usize) -> Self {
        assert!(step != 0, "step_by: the step must not be zero");
        StepBy { base, step }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for StepBy<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for StepBy<I> {
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.step)
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let (len, step) = (self.base.len(), self.step);
        return self.base.with_producer(Callback {
            callback,
            len,
            step,
        });

        struct Callback<CB> {
            callback: CB,
            len: usize,
            step: usize,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(StepByProducer {
                    base,
                    len: self.len,
                    step: self.step,
                })
            }
        }
    }
}

/// `len` counts the base items; item `k` of this producer is base item `k * step`.
struct StepByProducer<P> {
    base: P,
    len: usize,
    step: usize,
}

impl<P: Producer> Producer for StepByProducer<P> {
    type Item = P::Item;
    type IntoIter = std::iter::StepBy<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().step_by(self.step)
    }

    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.step)
    }

    fn max_len(&self) -> usize {
        (self.base.max_len() / self.step).max(1)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.step).min(self.len);
        let (left, right) = self.base.split_at(at);
        let step = self.step;
        (
            StepByProducer {
                base: left,
                len: at,
                step,
            },
            StepByProducer {
                base: right,
                len: self.len - at,
                step,
            },
        )
    }
}
