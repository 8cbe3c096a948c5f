//! Tuples of indexed parallel iterators zip into one: `(a, b, c).into_par_iter()`
//! yields `(a_i, b_i, c_i)`, as long as the shortest. Tuples of up to 12.

use crate::iter::plumbing::*;
use crate::iter::*;

/// The iterator made by `(a, b, ...).into_par_iter()`, `(a, b, ...).par_iter()` and
/// `(a, b, ...).par_iter_mut()` on tuples of up to 12 indexed sources.
///
/// ```
/// use prorata::prelude::*;
/// let (a, b) = (vec![1, 2, 3], vec![10, 20]);
/// let z: prorata::iter::MultiZip<_> = (&a, &b).into_par_iter();
/// assert_eq!(z.len(), 2);
/// let hits = std::sync::atomic::AtomicI32::new(0);
/// (a, b).par_iter().for_each(|(x, y)| { hits.fetch_add(x * y, std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(hits.into_inner(), 50);
/// ```
#[derive(Debug, Clone)]
pub struct MultiZip<T> {
    tuple: T,
}

/// The nested pattern `((a, b), c)` of a left-nested chain of `zip`s.
macro_rules! nested {
    (@acc $acc:tt;) => { $acc };
    (@acc $acc:tt; $next:ident $($rest:ident)*) => { nested!(@acc ($acc, $next); $($rest)*) };
    ($first:ident $($rest:ident)*) => { nested!(@acc $first; $($rest)*) };
}

macro_rules! multizip {
    ($(($($T:ident $t:ident $i:tt),+))*) => {$(
        impl<$($T),+> IntoParallelIterator for ($($T,)+)
        where
            $($T: IntoParallelIterator<Iter: IndexedParallelIterator>,)+
        {
            type Iter = MultiZip<($($T::Iter,)+)>;
            type Item = ($($T::Item,)+);

            fn into_par_iter(self) -> Self::Iter {
                MultiZip { tuple: ($(self.$i.into_par_iter(),)+) }
            }
        }

        impl<'a, $($T),+> IntoParallelIterator for &'a ($($T,)+)
        where
            $($T: IntoParallelRefIterator<'a, Iter: IndexedParallelIterator>,)+
        {
            type Iter = MultiZip<($($T::Iter,)+)>;
            type Item = ($($T::Item,)+);

            fn into_par_iter(self) -> Self::Iter {
                MultiZip { tuple: ($(self.$i.par_iter(),)+) }
            }
        }

        impl<'a, $($T),+> IntoParallelIterator for &'a mut ($($T,)+)
        where
            $($T: IntoParallelRefMutIterator<'a, Iter: IndexedParallelIterator>,)+
        {
            type Iter = MultiZip<($($T::Iter,)+)>;
            type Item = ($($T::Item,)+);

            fn into_par_iter(self) -> Self::Iter {
                MultiZip { tuple: ($(self.$i.par_iter_mut(),)+) }
            }
        }

        impl<$($T),+> ParallelIterator for MultiZip<($($T,)+)>
        where
            $($T: IndexedParallelIterator,)+
        {
            type Item = ($($T::Item,)+);

            fn drive_unindexed<CONSUMER>(self, consumer: CONSUMER) -> CONSUMER::Result
            where
                CONSUMER: UnindexedConsumer<Self::Item>,
            {
                bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<$($T),+> IndexedParallelIterator for MultiZip<($($T,)+)>
        where
            $($T: IndexedParallelIterator,)+
        {
            fn len(&self) -> usize {
                [$(self.tuple.$i.len()),+].into_iter().min().expect("a non-empty tuple")
            }

            fn drive<CONSUMER>(self, consumer: CONSUMER) -> CONSUMER::Result
            where
                CONSUMER: Consumer<Self::Item>,
            {
                bridge(self, consumer)
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<Self::Item>,
            {
                let ($($t,)+) = self.tuple;
                multizip!(@zip $($t)+)
                    .map(|nested!($($t)+)| ($($t,)+))
                    .with_producer(callback)
            }
        }
    )*};
    (@zip $first:ident $($rest:ident)*) => { $first $(.zip($rest))* };
}

multizip! {
    (A a 0)
    (A a 0, B b 1)
    (A a 0, B b 1, C c 2)
    (A a 0, B b 1, C c 2, D d 3)
    (A a 0, B b 1, C c 2, D d 3, E e 4)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10, L l 11)
}
