//! The consumer of `intersperse` over a base of known length. Such a base splits its
//! consumer at exact item counts (`split_at`), and so must `intersperse` split the
//! consumer downstream, which may accept nothing else (an in-place `collect`): a piece
//! of `n` items makes `2n - 1` output items, or `2n` when it starts with a separator,
//! as every piece but the first does.

use std::cell::Cell;

use crate::iter::plumbing::*;

/// Puts a clone of `item` before every item but the whole iterator's first.
pub(super) struct CountedConsumer<C, T> {
    base: C,
    item: T,
    /// Whether this piece's first item needs a separator before it (a `Cell`:
    /// `split_off_left(&self)` sets it).
    clone_first: Cell<bool>,
}

impl<C, T> CountedConsumer<C, T> {
    pub(super) fn new(base: C, item: T) -> Self {
        CountedConsumer {
            base,
            item,
            clone_first: Cell::new(false),
        }
    }
}

impl<C, T> Consumer<T> for CountedConsumer<C, T>
where
    C: Consumer<T>,
    T: Clone + Send,
{
    type Folder = CountedFolder<C::Folder, T>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        // An empty left piece leaves everything, separator or not, to the right one.
        let clone_first = self.clone_first.get();
        let (out_index, right_first) = match index {
            0 => (0, clone_first),
            n => (2 * n - usize::from(!clone_first), true),
        };
        let (left, right, reducer) = self.base.split_at(out_index);
        let left = CountedConsumer {
            base: left,
            item: self.item.clone(),
            clone_first: Cell::new(clone_first),
        };
        let right = CountedConsumer {
            base: right,
            item: self.item,
            clone_first: Cell::new(right_first),
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        CountedFolder {
            base: self.base.into_folder(),
            item: self.item,
            clone_first: self.clone_first.get(),
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

/// Only for the trait bound of `drive_unindexed`: a base of known length splits by
/// index. Should one split otherwise, the right piece starts with a separator, as in
/// Rayon.
impl<C, T> UnindexedConsumer<T> for CountedConsumer<C, T>
where
    C: UnindexedConsumer<T>,
    T: Clone + Send,
{
    fn split_off_left(&self) -> Self {
        let left = CountedConsumer {
            base: self.base.split_off_left(),
            item: self.item.clone(),
            clone_first: Cell::new(self.clone_first.get()),
        };
        self.clone_first.set(true);
        left
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

pub(super) struct CountedFolder<F, T> {
    base: F,
    item: T,
    clone_first: bool,
}

impl<F: Folder<T>, T: Clone> Folder<T> for CountedFolder<F, T> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        if self.clone_first {
            self.base = self.base.consume(self.item.clone());
            if self.base.full() {
                return self;
            }
        }
        self.clone_first = true;
        self.base = self.base.consume(item);
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
