//! Splitting one iterator into two collections in a single pass: `unzip`,
//! `partition`, `partition_map`.
//!
//! Each target collection has its own `par_extend`, which builds a consumer we cannot
//! name. So we hand the left target an iterator ([`LeftSide`]) whose driving method
//! hands the right target another iterator ([`RightSide`]); when that one is driven,
//! both consumers are in hand, and the base iterator is driven once into a
//! [`PairConsumer`] that routes every item to one side or both.

use either::Either;

use super::ParallelExtend;
use crate::iter::plumbing::*;
use crate::iter::{IndexedParallelIterator, ParallelIterator};

/// How the items of the base iterator are routed to the two sides.
pub(super) trait Route<T>: Sync + Send {
    /// Items of the left collection.
    type Left: Send;
    /// Items of the right collection.
    type Right: Send;
    /// True when each item sends exactly one item to each side, so both sides have
    /// as many items as the base and may be collected in place.
    const ONE_TO_EACH: bool;

    /// Feeds the parts of `item` to the folders.
    fn route<FL, FR>(&self, item: T, left: FL, right: FR) -> (FL, FR)
    where
        FL: Folder<Self::Left>,
        FR: Folder<Self::Right>;
}

/// Routes the first of a pair left, the second right.
pub(super) struct Unzip;

impl<A: Send, B: Send> Route<(A, B)> for Unzip {
    type Left = A;
    type Right = B;
    const ONE_TO_EACH: bool = true;

    fn route<FL: Folder<A>, FR: Folder<B>>(&self, (a, b): (A, B), l: FL, r: FR) -> (FL, FR) {
        (l.consume(a), r.consume(b))
    }
}

/// Routes left the items that satisfy the predicate, the others right.
struct Partition<P>(P);

impl<T: Send, P: Fn(&T) -> bool + Sync + Send> Route<T> for Partition<P> {
    type Left = T;
    type Right = T;
    const ONE_TO_EACH: bool = false;

    fn route<FL: Folder<T>, FR: Folder<T>>(&self, item: T, l: FL, r: FR) -> (FL, FR) {
        if (self.0)(&item) {
            (l.consume(item), r)
        } else {
            (l, r.consume(item))
        }
    }
}

/// Maps each item to an `Either` and routes `Left`s left, `Right`s right.
pub(super) struct PartitionMap<P>(pub(super) P);

impl<T, P, L, R> Route<T> for PartitionMap<P>
where
    P: Fn(T) -> Either<L, R> + Sync + Send,
    L: Send,
    R: Send,
{
    type Left = L;
    type Right = R;
    const ONE_TO_EACH: bool = false;

    fn route<FL: Folder<L>, FR: Folder<R>>(&self, item: T, l: FL, r: FR) -> (FL, FR) {
        match (self.0)(item) {
            Either::Left(item) => (l.consume(item), r),
            Either::Right(item) => (l, r.consume(item)),
        }
    }
}

/// `ParallelIterator::unzip`.
pub(crate) fn unzip<I, A, B, FromA, FromB>(iter: I) -> (FromA, FromB)
where
    I: ParallelIterator<Item = (A, B)>,
    FromA: Default + Send + ParallelExtend<A>,
    FromB: Default + Send + ParallelExtend<B>,
    A: Send,
    B: Send,
{
    split_into_new(iter, Unzip)
}

/// `ParallelIterator::partition`.
pub(crate) fn partition<I, A, B, P>(iter: I, predicate: P) -> (A, B)
where
    I: ParallelIterator,
    A: Default + Send + ParallelExtend<I::Item>,
    B: Default + Send + ParallelExtend<I::Item>,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    split_into_new(iter, Partition(predicate))
}

/// `ParallelIterator::partition_map`.
pub(crate) fn partition_map<I, A, B, P, L, R>(iter: I, predicate: P) -> (A, B)
where
    I: ParallelIterator,
    A: Default + Send + ParallelExtend<L>,
    B: Default + Send + ParallelExtend<R>,
    P: Fn(I::Item) -> Either<L, R> + Sync + Send,
    L: Send,
    R: Send,
{
    split_into_new(iter, PartitionMap(predicate))
}

/// Routes the items of `iter` into two new default collections.
fn split_into_new<I, RT, A, B>(iter: I, route: RT) -> (A, B)
where
    I: ParallelIterator,
    RT: Route<I::Item>,
    A: Default + Send + ParallelExtend<RT::Left>,
    B: Default + Send + ParallelExtend<RT::Right>,
{
    let mut left = A::default();
    let mut right = B::default();
    split_into(&mut left, &mut right, iter, route);
    (left, right)
}

/// Routes the items of `iter` into the two collections, in a single pass.
pub(super) fn split_into<I, RT, A, B>(left: &mut A, right: &mut B, iter: I, route: RT)
where
    I: ParallelIterator,
    RT: Route<I::Item>,
    A: Send + ParallelExtend<RT::Left>,
    B: Send + ParallelExtend<RT::Right>,
{
    left.par_extend(LeftSide {
        base: iter,
        route,
        right,
    });
}

/// Drives an indexed iterator of pairs into two indexed consumers at once.
pub(super) fn drive_indexed_unzip<I, A, B, CA, CB>(
    iter: I,
    left: CA,
    right: CB,
) -> (CA::Result, CB::Result)
where
    I: IndexedParallelIterator<Item = (A, B)>,
    A: Send,
    B: Send,
    CA: Consumer<A>,
    CB: Consumer<B>,
{
    iter.drive(PairConsumer {
        route: &Unzip,
        left,
        right,
    })
}

/// The iterator the left collection extends itself with. Driving it lets the right
/// collection extend itself with a [`RightSide`] that carries the left consumer.
struct LeftSide<'r, I, RT, B> {
    base: I,
    route: RT,
    right: &'r mut B,
}

impl<I, RT, B> ParallelIterator for LeftSide<'_, I, RT, B>
where
    I: ParallelIterator,
    RT: Route<I::Item>,
    B: Send + ParallelExtend<RT::Right>,
{
    type Item = RT::Left;

    fn drive_unindexed<C: UnindexedConsumer<RT::Left>>(self, left: C) -> C::Result {
        let mut left_result = None;
        self.right.par_extend(RightSide {
            base: self.base,
            route: self.route,
            left,
            left_result: &mut left_result,
        });
        left_result.expect("unzip: the right collection did not drive its iterator")
    }

    fn opt_len(&self) -> Option<usize> {
        if RT::ONE_TO_EACH {
            self.base.opt_len()
        } else {
            None
        }
    }
}

/// The iterator the right collection extends itself with. Driving it drives the base
/// iterator once, into both consumers, and leaves the left result for [`LeftSide`].
struct RightSide<'r, I, RT, CL, LR> {
    base: I,
    route: RT,
    left: CL,
    left_result: &'r mut Option<LR>,
}

impl<I, RT, CL, LR> ParallelIterator for RightSide<'_, I, RT, CL, LR>
where
    I: ParallelIterator,
    RT: Route<I::Item>,
    CL: UnindexedConsumer<RT::Left, Result = LR>,
    LR: Send,
{
    type Item = RT::Right;

    fn drive_unindexed<C: UnindexedConsumer<RT::Right>>(self, right: C) -> C::Result {
        let (left, right) = self.base.drive_unindexed(PairConsumer {
            route: &self.route,
            left: self.left,
            right,
        });
        *self.left_result = Some(left);
        right
    }

    fn opt_len(&self) -> Option<usize> {
        if RT::ONE_TO_EACH {
            self.base.opt_len()
        } else {
            None
        }
    }
}

/// Feeds every item, through the route, to a pair of consumers split in step.
struct PairConsumer<'r, RT, CL, CR> {
    route: &'r RT,
    left: CL,
    right: CR,
}

impl<'r, T, RT, CL, CR> Consumer<T> for PairConsumer<'r, RT, CL, CR>
where
    RT: Route<T>,
    CL: Consumer<RT::Left>,
    CR: Consumer<RT::Right>,
{
    type Folder = PairConsumer<'r, RT, CL::Folder, CR::Folder>;
    type Reducer = PairReducer<CL::Reducer, CR::Reducer>;
    type Result = (CL::Result, CR::Result);

    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer) {
        let (left_l, left_r, left_reducer) = self.left.split_at(index);
        let (right_l, right_r, right_reducer) = self.right.split_at(index);
        (
            pair(self.route, left_l, right_l),
            pair(self.route, left_r, right_r),
            PairReducer(left_reducer, right_reducer),
        )
    }

    fn into_folder(self) -> Self::Folder {
        pair(
            self.route,
            self.left.into_folder(),
            self.right.into_folder(),
        )
    }

    fn full(&self) -> bool {
        // One side may still want items while the other is done.
        self.left.full() && self.right.full()
    }
}

impl<T, RT, CL, CR> UnindexedConsumer<T> for PairConsumer<'_, RT, CL, CR>
where
    RT: Route<T>,
    CL: UnindexedConsumer<RT::Left>,
    CR: UnindexedConsumer<RT::Right>,
{
    fn split_off_left(&self) -> Self {
        pair(
            self.route,
            self.left.split_off_left(),
            self.right.split_off_left(),
        )
    }

    fn to_reducer(&self) -> Self::Reducer {
        PairReducer(self.left.to_reducer(), self.right.to_reducer())
    }
}

impl<T, RT, FL, FR> Folder<T> for PairConsumer<'_, RT, FL, FR>
where
    RT: Route<T>,
    FL: Folder<RT::Left>,
    FR: Folder<RT::Right>,
{
    type Result = (FL::Result, FR::Result);

    fn consume(self, item: T) -> Self {
        let (left, right) = self.route.route(item, self.left, self.right);
        pair(self.route, left, right)
    }

    fn complete(self) -> Self::Result {
        (self.left.complete(), self.right.complete())
    }

    fn full(&self) -> bool {
        self.left.full() && self.right.full()
    }
}

/// Makes a [`PairConsumer`] (or its folder) routed by `route`.
fn pair<RT, L, R>(route: &RT, left: L, right: R) -> PairConsumer<'_, RT, L, R> {
    PairConsumer { route, left, right }
}

/// Joins the results of both sides, each with its own reducer.
struct PairReducer<RL, RR>(RL, RR);

impl<A, B, RL, RR> Reducer<(A, B)> for PairReducer<RL, RR>
where
    RL: Reducer<A>,
    RR: Reducer<B>,
{
    fn reduce(self, left: (A, B), right: (A, B)) -> (A, B) {
        (
            self.0.reduce(left.0, right.0),
            self.1.reduce(left.1, right.1),
        )
    }
}
