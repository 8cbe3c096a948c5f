//! What `range::Iter` and `range_inclusive::Iter` share: their generic impls over the
//! integer types, through sealed traits that each integer type implements.
//!
//! One generic `ParallelIterator` impl over the integer types (rather than one per
//! type) lets `(0..n).into_par_iter()` infer the integer type as std does.

/// Declares, in the calling module (which defines `Iter<T>` with a field `range:
/// $range<T>`), `IntoParallelIterator for $range<T>`, the sealed traits
/// `private::{RangeInteger, IndexedRangeInteger}`, and the iterator impls over them.
macro_rules! sealed_range_iter {
    ($range:ident) => {
        impl<T> IntoParallelIterator for $range<T>
        where
            Iter<T>: ParallelIterator,
        {
            type Iter = Iter<T>;
            type Item = <Iter<T> as ParallelIterator>::Item;

            fn into_par_iter(self) -> Iter<T> {
                Iter { range: self }
            }
        }

        /// The integer types, sealed.
        mod private {
            use super::Iter;
            use crate::iter::plumbing::*;

            pub trait RangeInteger: Sized + Send {
                fn drive_unindexed<C: UnindexedConsumer<Self>>(
                    iter: Iter<Self>,
                    consumer: C,
                ) -> C::Result;
                fn opt_len(iter: &Iter<Self>) -> Option<usize>;
            }

            pub trait IndexedRangeInteger: RangeInteger {
                fn len(iter: &Iter<Self>) -> usize;
                fn with_producer<CB: ProducerCallback<Self>>(
                    iter: Iter<Self>,
                    callback: CB,
                ) -> CB::Output;
            }
        }

        use private::{IndexedRangeInteger, RangeInteger};

        impl<T: RangeInteger> ParallelIterator for Iter<T> {
            type Item = T;

            fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
                T::drive_unindexed(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                T::opt_len(self)
            }
        }

        impl<T: IndexedRangeInteger> IndexedParallelIterator for Iter<T> {
            fn len(&self) -> usize {
                T::len(self)
            }

            fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
                T::with_producer(self, callback)
            }
        }
    };
}

pub(super) use sealed_range_iter;
