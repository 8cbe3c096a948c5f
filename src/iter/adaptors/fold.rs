//! `fold` and `fold_with`: each sequential piece folds its items into one
//! accumulator, which goes downstream as a single item.

use std::fmt;
use std::mem::MaybeUninit;

use super::seed::{CallSeed, CloneSeed, Seed};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::fold`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::Fold<_, _, _> = (0..10usize).into_par_iter().fold(|| 0, |a, x| a + x);
/// assert_eq!(f.sum::<usize>(), 45);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Fold<I, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
}

impl<I: fmt::Debug, ID, F> fmt::Debug for Fold<I, ID, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fold").field("base", &self.base).finish()
    }
}

impl<I, ID, F> Fold<I, ID, F> {
    pub(crate) fn new(base: I, identity: ID, fold_op: F) -> Self {
        Fold {
            base,
            identity,
            fold_op,
        }
    }
}

impl<I, ID, F, T> ParallelIterator for Fold<I, ID, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> T + Sync + Send,
    ID: Fn() -> T + Sync + Send,
    T: Send,
{
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        let seed = CallSeed {
            make: &self.identity,
        };
        self.base.drive_unindexed(FoldConsumer {
            base: consumer,
            seed,
            fold_op: &self.fold_op,
        })
    }
}

/// The iterator made by [`ParallelIterator::fold_with`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::FoldWith<_, _, _> =
///     (0..10usize).into_par_iter().fold_with(0, |a, x| a + x);
/// assert_eq!(f.sum::<usize>(), 45);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FoldWith<I, U, F> {
    base: I,
    item: U,
    fold_op: F,
}

impl<I: fmt::Debug, U: fmt::Debug, F> fmt::Debug for FoldWith<I, U, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoldWith")
            .field("base", &self.base)
            .field("item", &self.item)
            .finish()
    }
}

impl<I, U, F> FoldWith<I, U, F> {
    pub(crate) fn new(base: I, item: U, fold_op: F) -> Self {
        FoldWith {
            base,
            item,
            fold_op,
        }
    }
}

impl<I, U, F> ParallelIterator for FoldWith<I, U, F>
where
    I: ParallelIterator,
    F: Fn(U, I::Item) -> U + Sync + Send,
    U: Send + Clone,
{
    type Item = U;

    fn drive_unindexed<C: UnindexedConsumer<U>>(self, consumer: C) -> C::Result {
        let seed = CloneSeed { value: self.item };
        self.base.drive_unindexed(FoldConsumer {
            base: consumer,
            seed,
            fold_op: &self.fold_op,
        })
    }
}

struct FoldConsumer<'f, C, S, F> {
    base: C,
    seed: S,
    fold_op: &'f F,
}

impl<'f, T, C, S, F> Consumer<T> for FoldConsumer<'f, C, S, F>
where
    S: Seed,
    C: Consumer<S::Value>,
    F: Fn(S::Value, T) -> S::Value + Sync,
{
    type Folder = FoldFolder<'f, C::Folder, S::Value, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let fold_op = self.fold_op;
        let left = FoldConsumer {
            base: left,
            seed: self.seed.split(),
            fold_op,
        };
        let right = FoldConsumer {
            base: right,
            seed: self.seed,
            fold_op,
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FoldFolder {
            base: self.base.into_folder(),
            acc: self.seed.into_value(),
            fold_op: self.fold_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, S, F> UnindexedConsumer<T> for FoldConsumer<'_, C, S, F>
where
    S: Seed,
    C: UnindexedConsumer<S::Value>,
    F: Fn(S::Value, T) -> S::Value + Sync,
{
    fn split_off_left(&self) -> Self {
        FoldConsumer {
            base: self.base.split_off_left(),
            seed: self.seed.split(),
            fold_op: self.fold_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FoldFolder<'f, G, A, F> {
    base: G,
    acc: A,
    fold_op: &'f F,
}

impl<T, G, A, F> Folder<T> for FoldFolder<'_, G, A, F>
where
    G: Folder<A>,
    F: Fn(A, T) -> A,
{
    type Result = G::Result;

    fn consume(mut self, item: T) -> Self {
        self.acc = (self.fold_op)(self.acc, item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(self, iter: I) -> Self {
        let FoldFolder { base, acc, fold_op } = self;
        let acc = fold_run(&base, acc, fold_op, iter.into_iter());
        FoldFolder { base, acc, fold_op }
    }

    fn complete(self) -> G::Result {
        self.base.consume(self.acc).complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

/// Folds `iter` into `acc` until `base` is full.
///
/// The accumulator stays in one place, `Slot`, read out for each call of `fold_op`
/// and written back with its result. Written as `fold(acc, fold_op)`, the compiler
/// kept the accumulator in a second stack slot beside the closure's argument and
/// copied it between the two on every item (a chain of stores and loads that cost
/// several times a `Vec::push`).
#[inline]
fn fold_run<T, G, A, F, I>(base: &G, acc: A, fold_op: &F, iter: I) -> A
where
    G: Folder<A>,
    F: Fn(A, T) -> A,
    I: Iterator<Item = T>,
{
    let mut slot = Slot {
        value: MaybeUninit::new(acc),
        live: true,
    };
    iter.take_while(|_| !base.full()).for_each(|x| {
        slot.live = false;
        // SAFETY: `live` was true, so `value` holds an accumulator; it is moved out
        // here and `live` stays false until a new one is written back, so that a
        // panic in `fold_op` (which drops the moved one itself) drops nothing twice.
        let acc = unsafe { slot.value.as_ptr().read() };
        slot.value.write(fold_op(acc, x));
        slot.live = true;
    });
    slot.live = false;
    // SAFETY: the loop ended with `live` true (every write back is followed by it),
    // so `value` holds the accumulator, moved out once here.
    unsafe { slot.value.as_ptr().read() }
}

/// The accumulator of [`fold_run`], dropped on unwinding (a panic upstream, in the
/// iterator's `next`) only if it is in place.
struct Slot<A> {
    value: MaybeUninit<A>,
    live: bool,
}

impl<A> Drop for Slot<A> {
    fn drop(&mut self) {
        if self.live {
            // SAFETY: `live` says `value` holds an accumulator not moved out.
            unsafe { self.value.assume_init_drop() }
        }
    }
}
