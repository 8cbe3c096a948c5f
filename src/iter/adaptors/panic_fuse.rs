//! `panic_fuse`: once any piece panics, every other piece stops taking items, so the
//! panic reaches the caller sooner.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::panic_fuse`].
///
/// ```
/// use prorata::prelude::*;
/// let p: prorata::iter::PanicFuse<_> = (0..3usize).into_par_iter().panic_fuse();
/// assert_eq!(p.len(), 3);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct PanicFuse<I> {
    base: I,
}

impl<I> PanicFuse<I> {
    pub(crate) fn new(base: I) -> Self {
        PanicFuse { base }
    }
}

/// A handle on the shared "some piece panicked" flag. Every piece holds one; the one
/// dropped while its thread unwinds blows the fuse.
struct Fuse<'a>(&'a AtomicBool);

impl Fuse<'_> {
    fn blown(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl Clone for Fuse<'_> {
    fn clone(&self) -> Self {
        Fuse(self.0)
    }
}

impl Drop for Fuse<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

impl<I: ParallelIterator> ParallelIterator for PanicFuse<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let blown = AtomicBool::new(false);
        let fuse = Fuse(&blown);
        self.base.drive_unindexed(FusedConsumer {
            base: consumer,
            fuse,
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for PanicFuse<I> {
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        let blown = AtomicBool::new(false);
        let fuse = Fuse(&blown);
        self.base.drive(FusedConsumer {
            base: consumer,
            fuse,
        })
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let blown = AtomicBool::new(false);
        let fuse = Fuse(&blown);
        return self.base.with_producer(Callback { callback, fuse });

        struct Callback<'a, CB> {
            callback: CB,
            fuse: Fuse<'a>,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<'_, CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                let fuse = self.fuse.clone();
                self.callback.callback(FusedProducer { base, fuse })
            }
        }
    }
}

struct FusedProducer<'a, P> {
    base: P,
    fuse: Fuse<'a>,
}

impl<'a, P: Producer> Producer for FusedProducer<'a, P> {
    type Item = P::Item;
    type IntoIter = FusedIter<'a, P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        FusedIter {
            base: self.base.into_iter(),
            fuse: self.fuse,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        let fuse = self.fuse.clone();
        (
            FusedProducer { base: left, fuse },
            FusedProducer {
                base: right,
                fuse: self.fuse,
            },
        )
    }

    fn fold_with<G: Folder<P::Item>>(self, folder: G) -> G {
        let folder = FusedFolder {
            base: folder,
            fuse: self.fuse,
        };
        self.base.fold_with(folder).base
    }
}

/// A piece's sequential iterator, for adaptors that drive it themselves (`rev`, `zip`,
/// `chunks`, ...) instead of through [`FusedProducer::fold_with`]: it ends once the fuse
/// is blown, from either end.
///
/// Its `len()` stays the base's: it can only end early after a panic elsewhere, and that
/// panic is what reaches the caller, so no consumer acts on the shortfall (the collect
/// consumers count their writes and never trust the length for memory safety).
struct FusedIter<'a, I> {
    base: I,
    fuse: Fuse<'a>,
}

impl<I: Iterator> Iterator for FusedIter<'_, I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.fuse.blown() {
            return None;
        }
        self.base.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.base.size_hint()
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for FusedIter<'_, I> {
    fn next_back(&mut self) -> Option<I::Item> {
        if self.fuse.blown() {
            return None;
        }
        self.base.next_back()
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for FusedIter<'_, I> {
    fn len(&self) -> usize {
        self.base.len()
    }
}

struct FusedConsumer<'a, C> {
    base: C,
    fuse: Fuse<'a>,
}

impl<'a, T, C: Consumer<T>> Consumer<T> for FusedConsumer<'a, C> {
    type Folder = FusedFolder<'a, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let fuse = self.fuse.clone();
        let left = FusedConsumer { base: left, fuse };
        let right = FusedConsumer {
            base: right,
            fuse: self.fuse,
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FusedFolder {
            base: self.base.into_folder(),
            fuse: self.fuse,
        }
    }

    fn full(&self) -> bool {
        self.fuse.blown() || self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for FusedConsumer<'_, C> {
    fn split_off_left(&self) -> Self {
        FusedConsumer {
            base: self.base.split_off_left(),
            fuse: self.fuse.clone(),
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FusedFolder<'a, G> {
    base: G,
    fuse: Fuse<'a>,
}

impl<T, G: Folder<T>> Folder<T> for FusedFolder<'_, G> {
    type Result = G::Result;

    fn consume(mut self, item: T) -> Self {
        self.base = self.base.consume(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        let fuse = &self.fuse;
        let unblown = iter.into_iter().take_while(|_| !fuse.blown());
        self.base = self.base.consume_iter(unblown);
        self
    }

    fn complete(self) -> G::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.fuse.blown() || self.base.full()
    }
}
