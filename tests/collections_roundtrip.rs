//! Collections: iterating (owned, `&`, `&mut`), draining and collecting in parallel
//! give what the sequential std methods give, on pools of 1, 2 and 8 workers.

mod common;

use prorata::prelude::*;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};

const LENGTHS: [usize; 5] = [0, 1, 7, 4099, 20_000];

/// Runs `test(len)` for every length, inside pools of every size.
fn on_pools(test: impl Fn(usize) + Sync) {
    common::cases::on_pools(|_| LENGTHS.into_iter().for_each(&test));
}

/// A deque of `len` items `0..len` whose storage wraps around (two non-empty slices
/// when `len > 1`).
fn wrapped_deque(len: usize) -> VecDeque<usize> {
    let mut d = VecDeque::with_capacity(len);
    for i in (0..len / 2).rev() {
        d.push_front(i);
    }
    d.extend(len / 2..len);
    d
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

#[test]
fn vec_deque_iterates_in_order() {
    on_pools(|len| {
        let mut d = wrapped_deque(len);
        let want: Vec<usize> = (0..len).collect();
        assert_eq!(d.par_iter().copied().collect::<Vec<_>>(), want);
        assert_eq!(d.par_iter().len(), len);
        d.par_iter_mut().enumerate().for_each(|(i, x)| *x += i);
        assert!(d.iter().enumerate().all(|(i, x)| *x == 2 * i));
        assert_eq!(
            d.into_par_iter().collect::<Vec<_>>(),
            sorted(want.iter().map(|x| 2 * x).collect())
        );
    });
}

#[test]
fn vec_deque_drain_matches_std() {
    on_pools(|len| {
        for range in [0..0, 0..len, len / 3..len / 2, len / 2..len] {
            let (mut par, mut seq) = (wrapped_deque(len), wrapped_deque(len));
            let drained: Vec<_> = par.par_drain(range.clone()).collect();
            let want: Vec<_> = seq.drain(range.clone()).collect();
            assert_eq!((drained, &par), (want, &seq));
            // Dropped without being driven: the range still goes.
            let mut unused = wrapped_deque(len);
            drop(unused.par_drain(range.clone()));
            assert_eq!(unused, seq);
        }
    });
}

#[test]
#[should_panic(expected = "range end Excluded(5) should be <= length 4")] // Rayon's text
fn vec_deque_drain_past_the_end_panics() {
    let mut d = wrapped_deque(4);
    let _ = d.par_drain(2..5);
}

/// Counts live values, to check that draining drops every item exactly once.
struct Counted<'a>(&'a AtomicUsize);

impl<'a> Counted<'a> {
    fn new(live: &'a AtomicUsize) -> Self {
        live.fetch_add(1, Ordering::Relaxed);
        Counted(live)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

#[test]
fn vec_deque_drain_drops_every_item_once() {
    let live = AtomicUsize::new(0);
    let mut d: VecDeque<Counted<'_>> = (0..10_000).map(|_| Counted::new(&live)).collect();
    d.rotate_left(3000);
    // Only some items are taken; the rest of the range is dropped by the drain.
    let found = d
        .par_drain(100..9000)
        .map(|c| c.0 as *const _ as usize)
        .find_any(|_| true);
    assert!(found.is_some());
    assert_eq!((d.len(), live.load(Ordering::Relaxed)), (1100, 1100));
    drop(d);
    assert_eq!(live.load(Ordering::Relaxed), 0);
}

#[test]
fn binary_heap_iterates_drains_and_collects() {
    on_pools(|len| {
        let items: Vec<usize> = (0..len).map(|i| i * 7 % 13).collect();
        let heap: BinaryHeap<usize> = items.par_iter().copied().collect();
        assert_eq!(heap.clone().into_sorted_vec(), sorted(items.clone()));
        assert_eq!(
            sorted(heap.par_iter().copied().collect()),
            sorted(items.clone())
        );
        assert_eq!(
            sorted(heap.clone().into_par_iter().collect()),
            sorted(items.clone())
        );
        let mut drained = heap.clone();
        assert_eq!(sorted(drained.par_drain().collect()), sorted(items.clone()));
        assert!(drained.is_empty());
        let mut grown = heap;
        grown.par_extend(&items);
        assert_eq!(grown.len(), 2 * len);
        assert_eq!(grown.peek(), items.iter().max());
    });
}

#[test]
fn btree_collections_iterate_in_order_and_collect() {
    on_pools(|len| {
        let map: BTreeMap<usize, usize> = (0..len).into_par_iter().map(|i| (i % 1000, i)).collect();
        let seq: BTreeMap<usize, usize> = (0..len).map(|i| (i % 1000, i)).collect();
        assert_eq!(map, seq);
        assert_eq!(
            map.par_iter().collect::<Vec<_>>(),
            seq.iter().collect::<Vec<_>>()
        );
        let mut doubled = map.clone();
        doubled.par_iter_mut().for_each(|(_, v)| *v *= 2);
        assert!(doubled.iter().all(|(k, v)| *v == 2 * seq[k]));
        assert_eq!(
            map.clone().into_par_iter().collect::<Vec<_>>(),
            seq.clone().into_iter().collect::<Vec<_>>()
        );
        let mut extended = BTreeMap::new();
        extended.par_extend(seq.par_iter());
        assert_eq!(extended, seq);

        let set: BTreeSet<usize> = (0..len).into_par_iter().map(|i| i % 977).collect();
        let seq_set: BTreeSet<usize> = (0..len).map(|i| i % 977).collect();
        assert_eq!(set, seq_set);
        assert_eq!(
            set.par_iter().collect::<Vec<_>>(),
            seq_set.iter().collect::<Vec<_>>()
        );
        assert_eq!(
            set.clone().into_par_iter().collect::<Vec<_>>(),
            seq_set.iter().copied().collect::<Vec<_>>()
        );
        let mut extended = BTreeSet::new();
        extended.par_extend(seq_set.par_iter());
        assert_eq!(extended, seq_set);
    });
}

#[test]
fn hash_collections_iterate_drain_and_collect() {
    on_pools(|len| {
        let map: HashMap<usize, usize> = (0..len).into_par_iter().map(|i| (i % 1000, i)).collect();
        let seq: HashMap<usize, usize> = (0..len).map(|i| (i % 1000, i)).collect();
        assert_eq!(map, seq);
        assert_eq!(
            sorted(map.par_iter().collect()),
            sorted(seq.iter().collect())
        );
        let mut doubled = map.clone();
        doubled.par_iter_mut().for_each(|(_, v)| *v *= 2);
        assert!(doubled.iter().all(|(k, v)| *v == 2 * seq[k]));
        assert_eq!(
            sorted(map.clone().into_par_iter().collect()),
            sorted(seq.clone().into_iter().collect())
        );
        let mut drained = map.clone();
        assert_eq!(
            sorted(drained.par_drain().collect()),
            sorted(seq.clone().into_iter().collect())
        );
        assert!(drained.is_empty());
        drained.par_extend(seq.par_iter());
        assert_eq!(drained, seq);

        let set: HashSet<usize> = (0..len).into_par_iter().map(|i| i % 977).collect();
        let seq_set: HashSet<usize> = (0..len).map(|i| i % 977).collect();
        assert_eq!(set, seq_set);
        assert_eq!(
            sorted(set.par_iter().copied().collect()),
            sorted(seq_set.iter().copied().collect())
        );
        assert_eq!(
            sorted(set.clone().into_par_iter().collect()),
            sorted(seq_set.iter().copied().collect())
        );
        let mut drained = set.clone();
        assert_eq!(
            sorted(drained.par_drain().collect()),
            sorted(seq_set.iter().copied().collect())
        );
        assert!(drained.is_empty());
        drained.par_extend(seq_set.par_iter());
        assert_eq!(drained, seq_set);
    });
}

#[test]
fn linked_list_and_vec_deque_collect_in_order() {
    on_pools(|len| {
        let list: LinkedList<usize> = (0..len).into_par_iter().filter(|x| x % 3 != 0).collect();
        let seq: LinkedList<usize> = (0..len).filter(|x| x % 3 != 0).collect();
        assert_eq!(list, seq);
        let pairs: LinkedList<(usize, usize)> =
            (0..len).into_par_iter().map(|i| (i % 10, i)).collect();
        assert!(
            pairs.iter().eq((0..len)
                .map(|i| (i % 10, i))
                .collect::<LinkedList<_>>()
                .iter())
        );
        assert_eq!(
            list.par_iter().collect::<Vec<_>>(),
            seq.iter().collect::<Vec<_>>()
        );
        let mut tenfold = list.clone();
        tenfold.par_iter_mut().for_each(|x| *x *= 10);
        assert!(tenfold.iter().zip(&seq).all(|(a, b)| *a == 10 * b));
        assert_eq!(
            list.clone().into_par_iter().collect::<Vec<_>>(),
            seq.iter().copied().collect::<Vec<_>>()
        );
        let mut grown = list.clone();
        grown.par_extend(seq.par_iter());
        assert!(grown.iter().eq(seq.iter().chain(&seq)));

        let deque: VecDeque<usize> = (0..len).into_par_iter().filter(|x| x % 3 != 0).collect();
        assert!(deque.iter().eq(seq.iter()));
        let mut grown = wrapped_deque(len);
        grown.par_extend((0..len).into_par_iter());
        grown.par_extend(seq.par_iter());
        assert!(
            grown.iter().eq((0..len)
                .chain(0..len)
                .chain(seq.iter().copied())
                .collect::<Vec<_>>()
                .iter())
        );
    });
}

#[test]
fn vec_deque_drain_survives_a_panicking_consumer() {
    let live = AtomicUsize::new(0);
    let mut d: VecDeque<Counted<'_>> = (0..5000).map(|_| Counted::new(&live)).collect();
    d.rotate_right(1234);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        d.par_drain(1000..4000).enumerate().for_each(|(i, item)| {
            assert!(i != 2500, "boom");
            drop(item);
        })
    }));
    assert!(result.is_err());
    // The range is gone, the rest is back in the deque, nothing leaked or doubly dropped.
    assert_eq!((d.len(), live.load(Ordering::Relaxed)), (2000, 2000));
    drop(d);
    assert_eq!(live.load(Ordering::Relaxed), 0);
}
