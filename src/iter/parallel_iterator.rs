//! The `ParallelIterator` trait: every parallel iterator's methods.

use super::consumers::try_trait::Try;
use super::plumbing::UnindexedConsumer;
use super::*;

/// A parallel iterator: the parallel version of [`Iterator`].
///
/// Adaptors (`map`, `filter`, ...) build a new iterator; consumers (`for_each`, `sum`,
/// `collect`, ...) run it on the current pool and return when every item is done.
///
/// ```
/// use prorata::prelude::*;
/// let hits = std::sync::atomic::AtomicUsize::new(0);
/// (0..1000usize).into_par_iter().for_each(|_| {
///     hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
/// });
/// assert_eq!(hits.into_inner(), 1000);
/// ```
pub trait ParallelIterator: Sized + Send {
    /// The items.
    type Item: Send;

    // ===== Required plumbing =====================================================

    /// Feeds every item to `consumer`, splitting as the driver sees fit. Internal
    /// plumbing: call consumers such as `for_each` or `collect` instead.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..3usize).into_par_iter().opt_len(), Some(3));
    /// ```
    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>;

    /// The exact number of items, if known without running the iterator.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..5usize).into_par_iter().opt_len(), Some(5));
    /// ```
    fn opt_len(&self) -> Option<usize> {
        None
    }

    // ===== Consumers (for_each, reduce, fold, sum, min, find, any, ...) ==========
    // Each consumer is a struct in `consumers/`, one file per concept, and a method
    // here that drives it. Add new consumer methods above the end marker below.

    /// Calls `op` on every item, in parallel.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut v = vec![0u8; 4];
    /// v.par_iter_mut().for_each(|x| *x = 7);
    /// assert_eq!(v, [7; 4]);
    /// ```
    fn for_each<OP>(self, op: OP)
    where
        OP: Fn(Self::Item) + Sync + Send,
    {
        consumers::for_each::for_each(self, &op)
    }

    /// Calls `op` on every item, with a mutable state cloned from `init` for every
    /// sequential piece of the work.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use std::sync::mpsc::channel;
    /// let (sender, receiver) = channel();
    /// (0..5usize).into_par_iter().for_each_with(sender, |s, x| s.send(x).unwrap());
    /// let mut got: Vec<usize> = receiver.iter().collect();
    /// got.sort();
    /// assert_eq!(got, [0, 1, 2, 3, 4]);
    /// ```
    fn for_each_with<OP, T>(self, init: T, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        T: Send + Clone,
    {
        self.map_with(init, op).for_each(|()| {})
    }

    /// Calls `op` on every item, with a mutable state made by `init` for every
    /// sequential piece of the work (a scratch buffer, a random generator...).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let total = std::sync::atomic::AtomicUsize::new(0);
    /// (0..100usize).into_par_iter().for_each_init(Vec::new, |buf, x| {
    ///     buf.push(x);
    ///     total.fetch_add(x, std::sync::atomic::Ordering::Relaxed);
    /// });
    /// assert_eq!(total.into_inner(), 4950);
    /// ```
    fn for_each_init<OP, INIT, T>(self, init: INIT, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
    {
        self.map_init(init, op).for_each(|()| {})
    }

    /// Calls the fallible `op` on every item; stops as soon as possible after one
    /// call fails, and returns one of the failures (not necessarily the first).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = (0..100usize).into_par_iter().try_for_each(|x| if x < 50 { Ok(()) } else { Err(x) });
    /// assert!(matches!(r, Err(x) if x >= 50));
    /// assert_eq!((0..10usize).into_par_iter().try_for_each(|_| Some(())), Some(()));
    /// ```
    fn try_for_each<OP, R>(self, op: OP) -> R
    where
        OP: Fn(Self::Item) -> R + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        self.map(op).try_reduce(|| (), |(), ()| R::from_output(()))
    }

    /// [`try_for_each`](Self::try_for_each) with a mutable state cloned from `init`
    /// for every sequential piece.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = (0..10usize).into_par_iter().try_for_each_with(3, |three, x| {
    ///     if x < *three + 100 { Ok(()) } else { Err(x) }
    /// });
    /// assert_eq!(r, Ok(()));
    /// ```
    fn try_for_each_with<OP, T, R>(self, init: T, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Try<Output = ()> + Send,
    {
        self.map_with(init, op)
            .try_reduce(|| (), |(), ()| R::from_output(()))
    }

    /// [`try_for_each`](Self::try_for_each) with a mutable state made by `init` for
    /// every sequential piece.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = (0..10usize).into_par_iter().try_for_each_init(String::new, |s, x| {
    ///     s.clear();
    ///     s.push_str(&x.to_string());
    ///     if s.len() < 2 { Some(()) } else { None }
    /// });
    /// assert_eq!(r, Some(()));
    /// ```
    fn try_for_each_init<OP, INIT, T, R>(self, init: INIT, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        self.map_init(init, op)
            .try_reduce(|| (), |(), ()| R::from_output(()))
    }

    /// The number of items.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..1000usize).into_par_iter().filter(|x| x % 3 == 0).count(), 334);
    /// ```
    fn count(self) -> usize {
        fn one<T>(_: T) -> usize {
            1
        }
        self.map(one).sum()
    }

    /// Combines all items with the associative `op`, each sequential piece starting
    /// from `identity()` (which may be called any number of times). Items are
    /// combined in their sequential order, so `op` need not be commutative.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let s = (0..5usize).into_par_iter().map(|x| x.to_string())
    ///     .reduce(String::new, |a, b| a + &b);
    /// assert_eq!(s, "01234");
    /// ```
    fn reduce<OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
        ID: Fn() -> Self::Item + Sync + Send,
    {
        consumers::reduce::reduce(self, &identity, &op)
    }

    /// Combines all items with the associative `op`, in sequential order; `None` if
    /// there are none.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((1..5usize).into_par_iter().reduce_with(|a, b| a * b), Some(24));
    /// assert_eq!((0..0usize).into_par_iter().reduce_with(|a, b| a * b), None);
    /// ```
    fn reduce_with<OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
    {
        let both = |a: Option<Self::Item>, b: Option<Self::Item>| match (a, b) {
            (Some(a), Some(b)) => Some(op(a, b)),
            (a, b) => a.or(b),
        };
        let add = |acc: Option<Self::Item>, item| match acc {
            Some(acc) => Some(op(acc, item)),
            None => Some(item),
        };
        self.fold(|| None, add).reduce(|| None, both)
    }

    /// Like [`reduce`](Self::reduce) over `Try` items (`Option`, `Result`,
    /// `ControlFlow`): stops as soon as possible after an item or a call of `op`
    /// says stop, and returns one of the stops (not necessarily the first).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let sum = (1..5usize).into_par_iter().map(|x| Some(x as u8)).try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(sum, Some(10));
    /// let big = (1..100usize).into_par_iter().map(|x| Some(x as u8)).try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(big, None);
    /// ```
    fn try_reduce<T, OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        Self::Item: Try<Output = T>,
    {
        let reduced = consumers::try_reduce::try_reduce_with(self, &op);
        reduced.unwrap_or_else(|| Self::Item::from_output(identity()))
    }

    /// Like [`reduce_with`](Self::reduce_with) over `Try` items: `None` if there are
    /// no items, else the combination or one of the stops.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = (1..5usize).into_par_iter().map(Ok::<usize, String>)
    ///     .try_reduce_with(|a, b| Ok(a.max(b)));
    /// assert_eq!(r, Some(Ok(4)));
    /// ```
    fn try_reduce_with<T, OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        Self::Item: Try<Output = T>,
    {
        consumers::try_reduce::try_reduce_with(self, &op)
    }

    /// Folds the items of every sequential piece into an accumulator that starts at
    /// `identity()`; the result is an iterator over the accumulators, in order
    /// (usually reduced next).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let total: usize = (0..100usize).into_par_iter()
    ///     .fold(|| 0, |acc, x| acc + x)
    ///     .sum();
    /// assert_eq!(total, 4950);
    /// ```
    fn fold<T, ID, F>(self, identity: ID, fold_op: F) -> Fold<Self, ID, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        T: Send,
    {
        Fold::new(self, identity, fold_op)
    }

    /// [`fold`](Self::fold) with every piece starting from a clone of `init`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let lens: usize = (0..10usize).into_par_iter()
    ///     .fold_with(Vec::new(), |mut v, x| { v.push(x); v })
    ///     .map(|v| v.len())
    ///     .sum();
    /// assert_eq!(lens, 10);
    /// ```
    fn fold_with<F, T>(self, init: T, fold_op: F) -> FoldWith<Self, T, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        T: Send + Clone,
    {
        FoldWith::new(self, init, fold_op)
    }

    /// [`fold`](Self::fold) with a fallible `fold_op`: each piece stops at its first
    /// stop (`None`, `Err`, `Break`) and yields it.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = [1u8, 2, 3, 4].par_iter().copied()
    ///     .try_fold(|| 0u8, |a, x| a.checked_add(x))
    ///     .try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(r, Some(10));
    /// ```
    fn try_fold<T, R, ID, F>(self, identity: ID, fold_op: F) -> TryFold<Self, R, ID, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        R: Try<Output = T> + Send,
    {
        TryFold::new(self, identity, fold_op)
    }

    /// [`try_fold`](Self::try_fold) with every piece starting from a clone of `init`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = [1u8, 2, 3, 4].par_iter().copied()
    ///     .try_fold_with(0u8, |a, x| a.checked_add(x))
    ///     .try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(r, Some(10));
    /// ```
    fn try_fold_with<F, T, R>(self, init: T, fold_op: F) -> TryFoldWith<Self, R, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        R: Try<Output = T> + Send,
        T: Clone + Send,
    {
        TryFoldWith::new(self, init, fold_op)
    }

    /// Sums the items with std's [`Sum`](std::iter::Sum). Totals of pieces are
    /// added in sequential order; for floats the rounding may differ from a
    /// sequential sum.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((1..101usize).into_par_iter().sum::<usize>(), 5050);
    /// ```
    fn sum<S>(self) -> S
    where
        S: Send + std::iter::Sum<Self::Item> + std::iter::Sum<S>,
    {
        consumers::sum::total::<Self, S, consumers::sum::Add>(self)
    }

    /// Multiplies the items with std's [`Product`](std::iter::Product).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((1..6usize).into_par_iter().product::<usize>(), 120);
    /// ```
    fn product<P>(self) -> P
    where
        P: Send + std::iter::Product<Self::Item> + std::iter::Product<P>,
    {
        consumers::sum::total::<Self, P, consumers::sum::Multiply>(self)
    }

    /// The smallest item; the first of several equal smallest, as `Iterator::min`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([3, 1, 2].par_iter().min(), Some(&1));
    /// ```
    fn min(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        self.min_by(Ord::cmp)
    }

    /// The smallest item by `f`; the first of several equal smallest.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = [3.5f64, -1.0, 2.0];
    /// assert_eq!(v.par_iter().min_by(|a, b| a.total_cmp(b)), Some(&-1.0));
    /// ```
    fn min_by<F>(self, f: F) -> Option<Self::Item>
    where
        F: Sync + Send + Fn(&Self::Item, &Self::Item) -> std::cmp::Ordering,
    {
        self.reduce_with(|a, b| match f(&a, &b) {
            std::cmp::Ordering::Greater => b,
            _ => a,
        })
    }

    /// The item with the smallest key; the first of several with equal keys.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([-3i32, 1, 2].par_iter().min_by_key(|x| x.abs()), Some(&1));
    /// ```
    fn min_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&Self::Item) -> K,
    {
        let keyed = self.map(|item| (f(&item), item));
        let (_, item) = keyed.min_by(|(a, _), (b, _)| a.cmp(b))?;
        Some(item)
    }

    /// The largest item; the last of several equal largest, as `Iterator::max`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([3, 1, 2].par_iter().max(), Some(&3));
    /// ```
    fn max(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        self.max_by(Ord::cmp)
    }

    /// The largest item by `f`; the last of several equal largest.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = [3.5f64, -1.0, 2.0];
    /// assert_eq!(v.par_iter().max_by(|a, b| a.total_cmp(b)), Some(&3.5));
    /// ```
    fn max_by<F>(self, f: F) -> Option<Self::Item>
    where
        F: Sync + Send + Fn(&Self::Item, &Self::Item) -> std::cmp::Ordering,
    {
        self.reduce_with(|a, b| match f(&a, &b) {
            std::cmp::Ordering::Greater => a,
            _ => b,
        })
    }

    /// The item with the largest key; the last of several with equal keys.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!([-3i32, 1, 2].par_iter().max_by_key(|x| x.abs()), Some(&-3));
    /// ```
    fn max_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&Self::Item) -> K,
    {
        let keyed = self.map(|item| (f(&item), item));
        let (_, item) = keyed.max_by(|(a, _), (b, _)| a.cmp(b))?;
        Some(item)
    }

    /// Some item that matches `predicate`, not necessarily the first; every piece
    /// stops looking as soon as one is found.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let hit = (0..1000usize).into_par_iter().find_any(|&x| x % 100 == 99);
    /// assert!(matches!(hit, Some(x) if x % 100 == 99));
    /// ```
    fn find_any<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        consumers::find_any::find_any(self, &predicate)
    }

    /// The first item in sequential order that matches `predicate`. Pieces after a
    /// piece that found a match stop looking.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..1000usize).into_par_iter().find_first(|&x| x % 100 == 99), Some(99));
    /// ```
    fn find_first<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        use consumers::find_first_last::{End, find};
        find(self, End::First, &predicate)
    }

    /// The last item in sequential order that matches `predicate`. Pieces before a
    /// piece that found a match stop looking.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..1000usize).into_par_iter().find_last(|&x| x % 100 == 99), Some(999));
    /// ```
    fn find_last<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        use consumers::find_first_last::{End, find};
        find(self, End::Last, &predicate)
    }

    /// Some `Some` result of `predicate`, not necessarily the first.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = ["a", "1", "b"].par_iter().find_map_any(|s| s.parse::<u8>().ok());
    /// assert_eq!(r, Some(1));
    /// ```
    fn find_map_any<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_any(|_| true)
    }

    /// The first `Some` result of `predicate`, in sequential order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = ["a", "1", "2"].par_iter().find_map_first(|s| s.parse::<u8>().ok());
    /// assert_eq!(r, Some(1));
    /// ```
    fn find_map_first<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_first(|_| true)
    }

    /// The last `Some` result of `predicate`, in sequential order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let r = ["a", "1", "2"].par_iter().find_map_last(|s| s.parse::<u8>().ok());
    /// assert_eq!(r, Some(2));
    /// ```
    fn find_map_last<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_last(|_| true)
    }

    /// Whether some item matches `predicate`; stops at the first match found.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!((0..100usize).into_par_iter().any(|x| x == 42));
    /// assert!(!(0..100usize).into_par_iter().any(|x| x == 420));
    /// ```
    fn any<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&hit| hit).is_some()
    }

    /// Whether every item matches `predicate`; stops at the first miss found.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert!((0..100usize).into_par_iter().all(|x| x < 100));
    /// assert!(!(0..100usize).into_par_iter().all(|x| x < 99));
    /// ```
    fn all<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&hit| !hit).is_none()
    }

    // ===== (end of consumers) =====================================================

    // ===== Adaptors (map, filter, flat_map, chain, ...) ===========================
    // Each adaptor is a struct in `adaptors/` with its producer and consumer wrappers.
    // Add new adaptor methods above the end marker below.

    /// Applies `map_op` to every item.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let mut out = vec![0; 3];
    /// out.par_iter_mut().enumerate().map(|(i, x)| (i, x)).for_each(|(i, x)| *x = i * i);
    /// assert_eq!(out, [0, 1, 4]);
    /// ```
    fn map<F, R>(self, map_op: F) -> Map<Self, F>
    where
        F: Fn(Self::Item) -> R + Sync + Send,
        R: Send,
    {
        Map::new(self, map_op)
    }

    /// Applies `map_op` to every item, with a mutable state cloned from `init` for
    /// every sequential piece.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let total: usize = (0..4usize).into_par_iter().map_with(10, |ten, x| *ten * x).sum();
    /// assert_eq!(total, 60);
    /// ```
    fn map_with<F, T, R>(self, init: T, map_op: F) -> MapWith<Self, T, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Send,
    {
        MapWith::new(self, init, map_op)
    }

    /// Applies `map_op` to every item, with a mutable state made by `init` for every
    /// sequential piece (a scratch buffer, a random generator...).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let lens: usize = (0..100usize).into_par_iter()
    ///     .map_init(String::new, |buf, x| { buf.clear(); buf.push_str(&x.to_string()); buf.len() })
    ///     .sum();
    /// assert_eq!(lens, 190);
    /// ```
    fn map_init<F, INIT, T, R>(self, init: INIT, map_op: F) -> MapInit<Self, INIT, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Send,
    {
        MapInit::new(self, init, map_op)
    }

    /// Clones every referenced item.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = vec![String::from("a"), String::from("bc")];
    /// let s = v.par_iter().cloned().reduce(String::new, |a, b| a + &b);
    /// assert_eq!(s, "abc");
    /// ```
    fn cloned<'a, T>(self) -> Cloned<Self>
    where
        T: 'a + Clone + Send,
        Self: ParallelIterator<Item = &'a T>,
    {
        Cloned::new(self)
    }

    /// Copies every referenced item.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = vec![1, 2, 3];
    /// assert_eq!(v.par_iter().copied().sum::<i32>(), 6);
    /// ```
    fn copied<'a, T>(self) -> Copied<Self>
    where
        T: 'a + Copy + Send + Sync,
        Self: ParallelIterator<Item = &'a T>,
    {
        Copied::new(self)
    }

    /// Calls `inspect_op` on a reference to every item as it passes.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let seen = std::sync::atomic::AtomicUsize::new(0);
    /// let total: usize = (0..10usize).into_par_iter()
    ///     .inspect(|_| { seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed); })
    ///     .sum();
    /// assert_eq!((total, seen.into_inner()), (45, 10));
    /// ```
    fn inspect<OP>(self, inspect_op: OP) -> Inspect<Self, OP>
    where
        OP: Fn(&Self::Item) + Sync + Send,
    {
        Inspect::new(self, inspect_op)
    }

    /// Modifies every item in place as it passes.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..4usize).into_par_iter().update(|x| *x *= 2).sum::<usize>(), 12);
    /// ```
    fn update<F>(self, update_op: F) -> Update<Self, F>
    where
        F: Fn(&mut Self::Item) + Sync + Send,
    {
        Update::new(self, update_op)
    }

    /// Keeps the items that match `filter_op`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..10usize).into_par_iter().filter(|x| x % 2 == 1).sum::<usize>(), 25);
    /// ```
    fn filter<P>(self, filter_op: P) -> Filter<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        Filter::new(self, filter_op)
    }

    /// Maps every item with `filter_op` and keeps the `Some` values.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = ["1", "x", "3"];
    /// assert_eq!(v.par_iter().filter_map(|s| s.parse::<u32>().ok()).sum::<u32>(), 4);
    /// ```
    fn filter_map<P, R>(self, filter_op: P) -> FilterMap<Self, P>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        FilterMap::new(self, filter_op)
    }

    /// Maps every item to a parallel iterator and yields their items, in order.
    ///
    /// Each inner iterator may be split among the workers, as in Rayon, and a consumer
    /// that sees pieces (`fold`, `map_init`, ...) gets its items in pieces of their
    /// own. Collected (`collect`, `par_extend`, optionally after `map`), an inner
    /// iterator of at most 64 items of known length is not split: its items go on
    /// into the piece being filled, as with [`flat_map_iter`](Self::flat_map_iter),
    /// and only the outer iterator is divided among the workers.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let total: usize = (0..4usize).into_par_iter().flat_map(|x| 0..x).sum();
    /// assert_eq!(total, 4);
    /// ```
    fn flat_map<F, PI>(self, map_op: F) -> FlatMap<Self, F>
    where
        F: Fn(Self::Item) -> PI + Sync + Send,
        PI: IntoParallelIterator,
    {
        FlatMap::new(self, map_op)
    }

    /// Maps every item to a sequential iterator and yields their items, in order.
    /// Cheaper than [`flat_map`](Self::flat_map) when the inner iterators are short.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let total: usize = (0..4usize).into_par_iter().flat_map_iter(|x| 0..x).sum();
    /// assert_eq!(total, 4);
    /// ```
    fn flat_map_iter<F, SI>(self, map_op: F) -> FlatMapIter<Self, F>
    where
        F: Fn(Self::Item) -> SI + Sync + Send,
        SI: IntoIterator,
        SI::Item: Send,
    {
        FlatMapIter::new(self, map_op)
    }

    /// Yields the items of every item, itself a parallel iterable, in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..4usize).into_par_iter().map(|x| 0..x).flatten().count(), 6);
    /// ```
    fn flatten(self) -> Flatten<Self>
    where
        Self::Item: IntoParallelIterator,
    {
        Flatten::new(self)
    }

    /// Yields the items of every item, itself a sequential iterable, in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v = vec![vec![1, 2], vec![], vec![3]];
    /// assert_eq!(v.par_iter().flatten_iter().sum::<i32>(), 6);
    /// ```
    fn flatten_iter(self) -> FlattenIter<Self>
    where
        Self::Item: IntoIterator,
        <Self::Item as IntoIterator>::Item: Send,
    {
        FlattenIter::new(self)
    }

    /// The items of `self`, then those of `chain`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let s = (0..2usize).into_par_iter().chain(7..9usize)
    ///     .map(|x| x.to_string()).reduce(String::new, |a, b| a + &b);
    /// assert_eq!(s, "0178");
    /// ```
    fn chain<C>(self, chain: C) -> Chain<Self, C::Iter>
    where
        C: IntoParallelIterator<Item = Self::Item>,
    {
        Chain::new(self, chain.into_par_iter())
    }

    /// The values of the `Some` items until a `None` is met. Other pieces may have
    /// yielded items after that `None` already: what is yielded beyond the first
    /// `None` is unspecified.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let n = (0..100usize).into_par_iter().map(Some).while_some().count();
    /// assert_eq!(n, 100);
    /// ```
    fn while_some<T>(self) -> WhileSome<Self>
    where
        Self: ParallelIterator<Item = Option<T>>,
        T: Send,
    {
        WhileSome::new(self)
    }

    /// Makes every piece stop taking items as soon as any piece panics, so that the
    /// panic reaches the caller sooner. The panic still propagates.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..10usize).into_par_iter().panic_fuse().sum::<usize>(), 45);
    /// ```
    fn panic_fuse(self) -> PanicFuse<Self> {
        PanicFuse::new(self)
    }

    /// A clone of `element` between every two neighbouring items.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let s = (1..4usize).into_par_iter().map(|x| x.to_string())
    ///     .intersperse(String::from(",")).reduce(String::new, |a, b| a + &b);
    /// assert_eq!(s, "1,2,3");
    /// ```
    fn intersperse(self, element: Self::Item) -> Intersperse<Self>
    where
        Self::Item: Clone,
    {
        Intersperse::new(self, element)
    }

    /// At most `n` items, whichever are reached first (not necessarily the first
    /// ones in order).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..100usize).into_par_iter().take_any(10).count(), 10);
    /// ```
    fn take_any(self, n: usize) -> TakeAny<Self> {
        TakeAny::new(self, n)
    }

    /// All items but `n` of them, whichever are reached first.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// assert_eq!((0..100usize).into_par_iter().skip_any(10).count(), 90);
    /// ```
    fn skip_any(self, n: usize) -> SkipAny<Self> {
        SkipAny::new(self, n)
    }

    /// Items while they match `predicate`: once any item fails it, every piece
    /// stops. Which items pass before that is unspecified.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let v: Vec<usize> = (0..100).collect();
    /// let n = v.par_iter().take_any_while(|&&x| x < 1000).count();
    /// assert_eq!(n, 100);
    /// ```
    fn take_any_while<P>(self, predicate: P) -> TakeAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        TakeAnyWhile::new(self, predicate)
    }

    /// Drops items while they match `predicate`: once any item fails it, every
    /// later item passes. Which items are dropped before that is unspecified.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let n = (0..100usize).into_par_iter().skip_any_while(|&x| x > 1000).count();
    /// assert_eq!(n, 100);
    /// ```
    fn skip_any_while<P>(self, predicate: P) -> SkipAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        SkipAnyWhile::new(self, predicate)
    }

    // ===== (end of adaptors) ======================================================

    // ===== Building collections (collect, unzip, partition, ...) ==================
    // Consumers that build collections live in `collect/`.
    // Add new collection methods above the end marker below.

    /// Builds a collection from the items, in order where the collection has one
    /// (`Vec`, `String`, ...). Iterators of known length are written into a `Vec` in
    /// place, without intermediate buffers.
    ///
    /// Collecting into `Option<C>` or `Result<C, E>` stops early at a `None` or an
    /// error. Collecting into a pair of collections unzips pairs (or partitions
    /// `Either`s) in a single pass.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let doubled: Vec<usize> = (0..5usize).into_par_iter().map(|x| 2 * x).collect();
    /// assert_eq!(doubled, [0, 2, 4, 6, 8]);
    /// let halves: Option<Vec<usize>> = doubled
    ///     .par_iter()
    ///     .map(|&x| (x % 2 == 0).then_some(x / 2))
    ///     .collect();
    /// assert_eq!(halves, Some(vec![0, 1, 2, 3, 4]));
    /// ```
    fn collect<C>(self) -> C
    where
        C: FromParallelIterator<Self::Item>,
    {
        C::from_par_iter(self)
    }

    /// Splits an iterator of pairs into two collections, in a single pass: the first
    /// items into `FromA`, the second ones into `FromB`, each in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let (xs, squares): (Vec<usize>, Vec<usize>) =
    ///     (0..4usize).into_par_iter().map(|x| (x, x * x)).unzip();
    /// assert_eq!(xs, [0, 1, 2, 3]);
    /// assert_eq!(squares, [0, 1, 4, 9]);
    /// ```
    fn unzip<A, B, FromA, FromB>(self) -> (FromA, FromB)
    where
        Self: ParallelIterator<Item = (A, B)>,
        FromA: Default + Send + ParallelExtend<A>,
        FromB: Default + Send + ParallelExtend<B>,
        A: Send,
        B: Send,
    {
        collect::unzip(self)
    }

    /// Splits the items into two collections, in a single pass: those for which
    /// `predicate` is true into `A`, the others into `B`, each in order.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let (even, odd): (Vec<usize>, Vec<usize>) =
    ///     (0..7usize).into_par_iter().partition(|x| x % 2 == 0);
    /// assert_eq!(even, [0, 2, 4, 6]);
    /// assert_eq!(odd, [1, 3, 5]);
    /// ```
    fn partition<A, B, P>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<Self::Item>,
        B: Default + Send + ParallelExtend<Self::Item>,
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        collect::partition(self, predicate)
    }

    /// Maps every item to an [`Either`](either::Either) and splits the results into
    /// two collections, in a single pass: the `Left` values into `A`, the `Right`
    /// values into `B`, each in order.
    ///
    /// ```
    /// use either::Either;
    /// use prorata::prelude::*;
    /// let (numbers, words): (Vec<u32>, Vec<&str>) = ["1", "a", "22", "b"][..]
    ///     .par_iter()
    ///     .partition_map(|s| match s.parse::<u32>() {
    ///         Ok(n) => Either::Left(n),
    ///         Err(_) => Either::Right(*s),
    ///     });
    /// assert_eq!(numbers, [1, 22]);
    /// assert_eq!(words, ["a", "b"]);
    /// ```
    fn partition_map<A, B, P, L, R>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<L>,
        B: Default + Send + ParallelExtend<R>,
        P: Fn(Self::Item) -> either::Either<L, R> + Sync + Send,
        L: Send,
        R: Send,
    {
        collect::partition_map(self, predicate)
    }

    /// Collects the items, in order, as a list of vectors: each piece of the split
    /// iterator keeps its own vector, so no item is moved twice. Useful to build
    /// collections that can absorb such pieces cheaply. Empty pieces are left out.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// let list = (0..1000usize).into_par_iter().map(|x| x + 1).collect_vec_list();
    /// let flat: Vec<usize> = list.into_iter().flatten().collect();
    /// assert_eq!(flat, (1..=1000).collect::<Vec<_>>());
    /// ```
    fn collect_vec_list(self) -> std::collections::LinkedList<Vec<Self::Item>> {
        collect::vec_list::collect_vec_list(self)
    }

    // ===== (end of collections) ===================================================
}
