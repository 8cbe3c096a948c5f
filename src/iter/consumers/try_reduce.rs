//! `try_reduce_with` (and through it `try_reduce`): reduces `Try` items, stopping
//! every piece as soon as one of them meets a stop (`None`, `Err`, `Break`).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::try_trait::{Try, from_control};
use crate::iter::ParallelIterator;
use crate::iter::plumbing::*;

pub(crate) fn try_reduce_with<I, T, OP>(iter: I, op: &OP) -> Option<I::Item>
where
    I: ParallelIterator<Item: Try<Output = T>>,
    OP: Fn(T, T) -> I::Item + Sync,
{
    let stopped = AtomicBool::new(false);
    iter.drive_unindexed(TryReduceConsumer {
        op,
        stopped: &stopped,
    })
}

struct TryReduceConsumer<'r, OP> {
    op: &'r OP,
    /// Set by the first piece that meets a stop; every piece then quits.
    stopped: &'r AtomicBool,
}

impl<OP> Clone for TryReduceConsumer<'_, OP> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<OP> Copy for TryReduceConsumer<'_, OP> {}

impl<'r, R, OP> Consumer<R> for TryReduceConsumer<'r, OP>
where
    R: Try + Send,
    OP: Fn(R::Output, R::Output) -> R + Sync,
{
    type Folder = TryReduceFolder<'r, OP, R>;
    type Reducer = Self;
    type Result = Option<R>;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        TryReduceFolder {
            consumer: self,
            acc: None,
        }
    }

    fn full(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

impl<R, OP> UnindexedConsumer<R> for TryReduceConsumer<'_, OP>
where
    R: Try + Send,
    OP: Fn(R::Output, R::Output) -> R + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<R, OP> Reducer<Option<R>> for TryReduceConsumer<'_, OP>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    fn reduce(self, left: Option<R>, right: Option<R>) -> Option<R> {
        let (left, right) = match (left, right) {
            (Some(left), Some(right)) => (left, right),
            (left, right) => return left.or(right),
        };
        match (left.branch(), right.branch()) {
            (ControlFlow::Continue(a), ControlFlow::Continue(b)) => Some((self.op)(a, b)),
            (ControlFlow::Break(stop), _) | (_, ControlFlow::Break(stop)) => {
                Some(R::from_residual(stop))
            }
        }
    }
}

struct TryReduceFolder<'r, OP, R: Try> {
    consumer: TryReduceConsumer<'r, OP>,
    /// `None` until the first item.
    acc: Option<ControlFlow<R::Residual, R::Output>>,
}

impl<R, OP> Folder<R> for TryReduceFolder<'_, OP, R>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    type Result = Option<R>;

    fn consume(mut self, item: R) -> Self {
        let next = match self.acc.take() {
            None => item.branch(),
            Some(ControlFlow::Continue(acc)) => match item.branch() {
                ControlFlow::Continue(item) => (self.consumer.op)(acc, item).branch(),
                ControlFlow::Break(stop) => ControlFlow::Break(stop),
            },
            Some(stop) => stop,
        };
        if next.is_break() {
            self.consumer.stopped.store(true, Ordering::Relaxed);
        }
        self.acc = Some(next);
        self
    }

    fn complete(self) -> Option<R> {
        self.acc.map(from_control)
    }

    fn full(&self) -> bool {
        self.consumer.stopped.load(Ordering::Relaxed)
    }
}
