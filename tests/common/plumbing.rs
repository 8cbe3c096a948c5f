//! Reading a parallel iterator through the public plumbing, so that tests of
//! adaptors and sources do not depend on `collect`.

use prorata::iter::ParallelIterator;
use prorata::iter::plumbing::*;

/// The items, in the iterator's order.
pub fn to_vec<I: ParallelIterator>(iter: I) -> Vec<I::Item> {
    iter.drive_unindexed(VecConsumer)
}

/// The items sorted, for adaptors whose order is unspecified.
pub fn sorted<I>(iter: I) -> Vec<I::Item>
where
    I: ParallelIterator<Item: Ord>,
{
    let mut v = to_vec(iter);
    v.sort();
    v
}

/// Counts the items of each sequential piece (each folder).
pub fn pieces<I: ParallelIterator>(iter: I) -> Vec<usize> {
    iter.drive_unindexed(PieceConsumer)
}

/// Wraps an iterator and hides its length, so consumers take their unindexed path.
pub struct Unindexed<I>(pub I);

impl<I: ParallelIterator> ParallelIterator for Unindexed<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        self.0.drive_unindexed(consumer)
    }
}

/// Collects each piece into a `Vec`; the pieces are concatenated in order.
struct VecConsumer;

impl<T: Send> Consumer<T> for VecConsumer {
    type Folder = VecFolder<T>;
    type Reducer = Concat;
    type Result = Vec<T>;

    fn split_at(self, _index: usize) -> (Self, Self, Concat) {
        (VecConsumer, VecConsumer, Concat)
    }

    fn into_folder(self) -> VecFolder<T> {
        VecFolder(Vec::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T: Send> UnindexedConsumer<T> for VecConsumer {
    fn split_off_left(&self) -> Self {
        VecConsumer
    }

    fn to_reducer(&self) -> Concat {
        Concat
    }
}

struct VecFolder<T>(Vec<T>);

impl<T> Folder<T> for VecFolder<T> {
    type Result = Vec<T>;

    fn consume(mut self, item: T) -> Self {
        self.0.push(item);
        self
    }

    fn complete(self) -> Vec<T> {
        self.0
    }

    fn full(&self) -> bool {
        false
    }
}

struct Concat;

impl<T> Reducer<Vec<T>> for Concat {
    fn reduce(self, mut left: Vec<T>, mut right: Vec<T>) -> Vec<T> {
        left.append(&mut right);
        left
    }
}

/// Turns each piece into its item count; the counts are concatenated in order.
struct PieceConsumer;

impl<T> Consumer<T> for PieceConsumer {
    type Folder = PieceFolder;
    type Reducer = Concat;
    type Result = Vec<usize>;

    fn split_at(self, _index: usize) -> (Self, Self, Concat) {
        (PieceConsumer, PieceConsumer, Concat)
    }

    fn into_folder(self) -> PieceFolder {
        PieceFolder(0)
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T> UnindexedConsumer<T> for PieceConsumer {
    fn split_off_left(&self) -> Self {
        PieceConsumer
    }

    fn to_reducer(&self) -> Concat {
        Concat
    }
}

struct PieceFolder(usize);

impl<T> Folder<T> for PieceFolder {
    type Result = Vec<usize>;

    fn consume(self, _item: T) -> Self {
        PieceFolder(self.0 + 1)
    }

    fn complete(self) -> Vec<usize> {
        vec![self.0]
    }

    fn full(&self) -> bool {
        false
    }
}
