//! Parallel iterators over std's collections, and collecting into them.
//!
//! Contiguous collections are iterated in place (`VecDeque` as its two slices,
//! `BinaryHeap` as its slice); the others are first gathered into a `Vec` of items
//! (or references), which is then split like any `Vec`. Collecting into a collection
//! gathers the items in parallel, in order, then inserts them sequentially (a
//! `LinkedList` links them on the workers instead, and appends the lists in order).
//!
//! ```
//! use prorata::prelude::*;
//! use std::collections::BTreeSet;
//! let set: BTreeSet<u32> = (0..100u32).into_par_iter().map(|x| x % 10).collect();
//! assert_eq!(set.len(), 10);
//! let total = std::sync::atomic::AtomicU32::new(0);
//! set.par_iter().for_each(|x| { total.fetch_add(*x, std::sync::atomic::Ordering::Relaxed); });
//! assert_eq!(total.into_inner(), 45);
//! ```

use crate::iter::{IntoParallelIterator, ParallelIterator};

pub mod binary_heap;
pub mod btree_map;
pub mod btree_set;
pub mod hash_map;
pub mod hash_set;
pub mod linked_list;
pub mod vec_deque;

/// Gathers the items of `par_iter` in parallel, then extends `target` with them in
/// order, after reserving room for all of them with `reserve`.
fn extend_in_order<C, I>(target: &mut C, par_iter: I, reserve: impl FnOnce(&mut C, usize))
where
    I: IntoParallelIterator,
    C: Extend<I::Item>,
{
    let pieces = par_iter.into_par_iter().collect_vec_list();
    reserve(target, pieces.iter().map(Vec::len).sum());
    for piece in pieces {
        target.extend(piece);
    }
}

/// For collections that cannot reserve room ahead.
fn no_reserve<C>(_: &mut C, _: usize) {}

/// Implements `ParallelIterator` and `IndexedParallelIterator` for a wrapper struct by
/// handing everything to its `inner` iterator.
macro_rules! delegate_indexed {
    (<$($param:tt),*> $name:ty => $item:ty where $($bound:tt)*) => {
        impl<$($param),*> $crate::iter::ParallelIterator for $name
        where
            $($bound)*
        {
            type Item = $item;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: $crate::iter::plumbing::UnindexedConsumer<$item>,
            {
                self.inner.drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                self.inner.opt_len()
            }
        }

        impl<$($param),*> $crate::iter::IndexedParallelIterator for $name
        where
            $($bound)*
        {
            fn len(&self) -> usize {
                self.inner.len()
            }

            fn drive<C>(self, consumer: C) -> C::Result
            where
                C: $crate::iter::plumbing::Consumer<$item>,
            {
                self.inner.drive(consumer)
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: $crate::iter::plumbing::ProducerCallback<$item>,
            {
                self.inner.with_producer(callback)
            }
        }
    };
}

/// Implements `ParallelExtend` for a collection, for owned items and for references
/// to `Copy` items, through [`extend_in_order`].
macro_rules! par_extend_impls {
    (
        <$($param:tt),*> $coll:ty, $item:ty, $ref_item:ty, $reserve:expr,
        where [$($bound:tt)*], ref where [$($ref_bound:tt)*]
    ) => {
        impl<$($param),*> $crate::iter::ParallelExtend<$item> for $coll
        where
            $($bound)*
        {
            fn par_extend<I>(&mut self, par_iter: I)
            where
                I: $crate::iter::IntoParallelIterator<Item = $item>,
            {
                super::extend_in_order(self, par_iter, $reserve);
            }
        }

        impl<'r, $($param),*> $crate::iter::ParallelExtend<$ref_item> for $coll
        where
            $($ref_bound)*
        {
            fn par_extend<I>(&mut self, par_iter: I)
            where
                I: $crate::iter::IntoParallelIterator<Item = $ref_item>,
            {
                super::extend_in_order(self, par_iter, $reserve);
            }
        }
    };
}

use delegate_indexed;
use par_extend_impls;
