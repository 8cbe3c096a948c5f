//! `try_fold` and `try_fold_with`: like `fold`, but each piece stops at the first
//! step that says stop (`None`, `Err`, `ControlFlow::Break`) and sends that on.

use std::fmt;
use std::marker::PhantomData;
use std::ops::ControlFlow;

use super::seed::{CallSeed, CloneSeed, Seed};
use crate::iter::consumers::try_trait::{Try, from_control};
use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by [`ParallelIterator::try_fold`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::TryFold<_, _, _, _> =
///     (1..5usize).into_par_iter().try_fold(|| 0usize, |a, x| a.checked_add(x));
/// assert_eq!(f.try_reduce(|| 0, |a, b| a.checked_add(b)), Some(10));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
pub struct TryFold<I, U, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
    marker: PhantomData<U>,
}

impl<I: Clone, U, ID: Clone, F: Clone> Clone for TryFold<I, U, ID, F> {
    fn clone(&self) -> Self {
        TryFold::new(
            self.base.clone(),
            self.identity.clone(),
            self.fold_op.clone(),
        )
    }
}

impl<I: fmt::Debug, U, ID, F> fmt::Debug for TryFold<I, U, ID, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryFold").field("base", &self.base).finish()
    }
}

impl<I, U, ID, F> TryFold<I, U, ID, F> {
    pub(crate) fn new(base: I, identity: ID, fold_op: F) -> Self {
        TryFold {
            base,
            identity,
            fold_op,
            marker: PhantomData,
        }
    }
}

impl<I, U, ID, F> ParallelIterator for TryFold<I, U, ID, F>
where
    I: ParallelIterator,
    F: Fn(U::Output, I::Item) -> U + Sync + Send,
    ID: Fn() -> U::Output + Sync + Send,
    U: Try + Send,
{
    type Item = U;

    fn drive_unindexed<C: UnindexedConsumer<U>>(self, consumer: C) -> C::Result {
        let seed = CallSeed {
            make: &self.identity,
        };
        self.base.drive_unindexed(TryFoldConsumer {
            base: consumer,
            seed,
            fold_op: &self.fold_op,
            marker: PhantomData,
        })
    }
}

/// The iterator made by [`ParallelIterator::try_fold_with`].
///
/// ```
/// use prorata::prelude::*;
/// let f: prorata::iter::TryFoldWith<_, _, _> =
///     (1..5usize).into_par_iter().try_fold_with(0usize, |a, x| a.checked_add(x));
/// assert_eq!(f.try_reduce(|| 0, |a, b| a.checked_add(b)), Some(10));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
pub struct TryFoldWith<I, U: Try, F> {
    base: I,
    item: U::Output,
    fold_op: F,
}

impl<I: Clone, U: Try<Output: Clone>, F: Clone> Clone for TryFoldWith<I, U, F> {
    fn clone(&self) -> Self {
        TryFoldWith::new(self.base.clone(), self.item.clone(), self.fold_op.clone())
    }
}

impl<I: fmt::Debug, U: Try<Output: fmt::Debug>, F> fmt::Debug for TryFoldWith<I, U, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryFoldWith")
            .field("base", &self.base)
            .field("item", &self.item)
            .finish()
    }
}

impl<I, U: Try, F> TryFoldWith<I, U, F> {
    pub(crate) fn new(base: I, item: U::Output, fold_op: F) -> Self {
        TryFoldWith {
            base,
            item,
            fold_op,
        }
    }
}

impl<I, U, F> ParallelIterator for TryFoldWith<I, U, F>
where
    I: ParallelIterator,
    F: Fn(U::Output, I::Item) -> U + Sync + Send,
    U: Try<Output: Clone + Send> + Send,
{
    type Item = U;

    fn drive_unindexed<C: UnindexedConsumer<U>>(self, consumer: C) -> C::Result {
        let seed = CloneSeed { value: self.item };
        self.base.drive_unindexed(TryFoldConsumer {
            base: consumer,
            seed,
            fold_op: &self.fold_op,
            marker: PhantomData,
        })
    }
}

struct TryFoldConsumer<'f, C, S, F, U> {
    base: C,
    seed: S,
    fold_op: &'f F,
    marker: PhantomData<fn() -> U>,
}

impl<'f, C, S, F, U> TryFoldConsumer<'f, C, S, F, U> {
    fn with(base: C, seed: S, fold_op: &'f F) -> Self {
        TryFoldConsumer {
            base,
            seed,
            fold_op,
            marker: PhantomData,
        }
    }
}

impl<'f, T, C, S, F, U> Consumer<T> for TryFoldConsumer<'f, C, S, F, U>
where
    U: Try<Output = S::Value> + Send,
    S: Seed,
    C: Consumer<U>,
    F: Fn(S::Value, T) -> U + Sync,
{
    type Folder = TryFoldFolder<'f, C::Folder, U, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let left = TryFoldConsumer::with(left, self.seed.split(), self.fold_op);
        let right = TryFoldConsumer::with(right, self.seed, self.fold_op);
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        TryFoldFolder {
            base: self.base.into_folder(),
            control: ControlFlow::Continue(self.seed.into_value()),
            fold_op: self.fold_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, S, F, U> UnindexedConsumer<T> for TryFoldConsumer<'_, C, S, F, U>
where
    U: Try<Output = S::Value> + Send,
    S: Seed,
    C: UnindexedConsumer<U>,
    F: Fn(S::Value, T) -> U + Sync,
{
    fn split_off_left(&self) -> Self {
        TryFoldConsumer::with(self.base.split_off_left(), self.seed.split(), self.fold_op)
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct TryFoldFolder<'f, G, U: Try, F> {
    base: G,
    control: ControlFlow<U::Residual, U::Output>,
    fold_op: &'f F,
}

impl<T, G, U, F> Folder<T> for TryFoldFolder<'_, G, U, F>
where
    U: Try,
    G: Folder<U>,
    F: Fn(U::Output, T) -> U,
{
    type Result = G::Result;

    fn consume(mut self, item: T) -> Self {
        if let ControlFlow::Continue(acc) = self.control {
            self.control = (self.fold_op)(acc, item).branch();
        }
        self
    }

    fn complete(self) -> G::Result {
        self.base.consume(from_control(self.control)).complete()
    }

    fn full(&self) -> bool {
        self.control.is_break() || self.base.full()
    }
}
