//! Indexed adaptors against their `std::iter` equivalents, over several lengths and
//! pool sizes.

mod common;

use common::cases::{LENS, pools};
use common::plumbing::{pieces, to_vec};
use prorata::prelude::*;

fn data(len: usize) -> Vec<u64> {
    (0..len as u64)
        .map(|x| x.wrapping_mul(0x9E37_79B9) % 1000)
        .collect()
}

#[test]
fn zip_pairs_like_std() {
    for pool in pools() {
        for &len in LENS {
            let a = data(len);
            let b: Vec<u64> = data(len / 2 + 3);
            let got = pool.install(|| to_vec(a.par_iter().zip(&b)));
            let want: Vec<_> = a.iter().zip(&b).collect();
            assert_eq!(got, want, "len {len}");
            let got = pool.install(|| to_vec(b.par_iter().zip(a.par_iter().rev())));
            let want: Vec<_> = b.iter().zip(a.iter().rev()).collect();
            assert_eq!(got, want, "len {len}");
        }
    }
}

#[test]
fn zip_eq_pairs_equal_lengths() {
    for &len in LENS {
        let a = data(len);
        let got = to_vec(a.par_iter().zip_eq(0..len));
        let want: Vec<_> = a.iter().zip(0..len).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn zip_eq_panics_on_unequal_lengths() {
    let a = data(5);
    let err = std::panic::catch_unwind(|| a.par_iter().zip_eq(0..4usize).len()).unwrap_err();
    let msg = err.downcast_ref::<String>().expect("a formatted message");
    assert!(msg.contains("same length"), "{msg}");
    assert!(msg.contains('5') && msg.contains('4'), "{msg}");
}

#[test]
fn rev_skip_take_step_by_like_std() {
    for pool in pools() {
        for &len in LENS {
            let a = data(len);
            for n in [0, 1, len / 3, len, len + 5] {
                let got = pool.install(|| to_vec(a.par_iter().skip(n)));
                assert_eq!(
                    got,
                    a.iter().skip(n).collect::<Vec<_>>(),
                    "skip {n} of {len}"
                );
                let got = pool.install(|| to_vec(a.par_iter().take(n)));
                assert_eq!(
                    got,
                    a.iter().take(n).collect::<Vec<_>>(),
                    "take {n} of {len}"
                );
            }
            for step in [1, 2, 3, 7, len.max(1), len + 1] {
                let got = pool.install(|| to_vec(a.par_iter().step_by(step)));
                let want: Vec<_> = a.iter().step_by(step).collect();
                assert_eq!(got, want, "step {step} of {len}");
                let got = pool.install(|| to_vec(a.par_iter().step_by(step).rev()));
                let want: Vec<_> = a.iter().step_by(step).rev().collect();
                assert_eq!(got, want, "rev step {step} of {len}");
            }
            let got = pool.install(|| to_vec(a.par_iter().rev()));
            assert_eq!(got, a.iter().rev().collect::<Vec<_>>());
            let got = pool.install(|| to_vec(a.par_iter().rev().skip(2).take(len / 2).rev()));
            let want: Vec<_> = a.iter().rev().skip(2).take(len / 2).rev().collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn step_by_zero_panics() {
    let result = std::panic::catch_unwind(|| (0..3usize).into_par_iter().step_by(0).len());
    assert!(result.is_err());
}

#[test]
fn skipped_items_still_run_through_earlier_adaptors() {
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let kept = to_vec(
        (0..100usize)
            .into_par_iter()
            .map(|x| {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                x
            })
            .skip(40),
    );
    assert_eq!(kept, (40..100).collect::<Vec<_>>());
    assert_eq!(seen.into_inner(), 100);
}

#[test]
fn enumerate_after_rev_and_skip() {
    let a = data(10_000);
    let got = to_vec(a.par_iter().rev().skip(3).enumerate());
    let want: Vec<_> = a.iter().rev().skip(3).enumerate().collect();
    assert_eq!(got, want);
}

#[test]
fn chunks_and_fold_chunks_like_std() {
    for pool in pools() {
        for &len in LENS {
            let a = data(len);
            for size in [1, 2, 3, 64, 4096, len.max(1), len + 1] {
                let got = pool.install(|| to_vec(a.par_iter().map(|&x| x).chunks(size)));
                let want: Vec<Vec<u64>> = a.chunks(size).map(|c| c.to_vec()).collect();
                assert_eq!(got, want, "chunks {size} of {len}");
                let got = pool.install(|| to_vec(a.par_iter().map(|&x| x).chunks(size).rev()));
                let want_rev: Vec<Vec<u64>> = want.iter().rev().cloned().collect();
                assert_eq!(got, want_rev, "rev chunks {size} of {len}");
                let sums: Vec<u64> = a.chunks(size).map(|c| c.iter().sum()).collect();
                let got =
                    pool.install(|| to_vec(a.par_iter().fold_chunks(size, || 0, |s, &x| s + x)));
                assert_eq!(got, sums, "fold_chunks {size} of {len}");
                let got = pool
                    .install(|| to_vec(a.par_iter().fold_chunks_with(size, 0u64, |s, &x| s + x)));
                assert_eq!(got, sums, "fold_chunks_with {size} of {len}");
            }
        }
    }
}

#[test]
fn chunk_size_zero_panics() {
    let result = std::panic::catch_unwind(|| (0..3usize).into_par_iter().chunks(0).len());
    assert!(result.is_err());
}

/// Sequential reference for `interleave`.
fn interleave_seq<T: Clone>(a: &[T], b: &[T]) -> Vec<T> {
    let mut out = Vec::new();
    let (mut i, mut j) = (a.iter(), b.iter());
    loop {
        match (i.next(), j.next()) {
            (None, None) => return out,
            (x, y) => out.extend(x.into_iter().chain(y).cloned()),
        }
    }
}

/// Sequential reference for `interleave_shortest`.
fn interleave_shortest_seq<T: Clone>(a: &[T], b: &[T]) -> Vec<T> {
    let mut out = Vec::new();
    let (mut i, mut j) = (a.iter(), b.iter());
    loop {
        match i.next() {
            Some(x) => out.push(x.clone()),
            None => return out,
        }
        match j.next() {
            Some(y) => out.push(y.clone()),
            None => return out,
        }
    }
}

#[test]
fn interleave_like_sequential() {
    for pool in pools() {
        for (la, lb) in [
            (0, 0),
            (0, 3),
            (3, 0),
            (5, 5),
            (5, 6),
            (6, 5),
            (4097, 100),
            (100, 100_000),
        ] {
            let a = data(la);
            let b: Vec<u64> = data(lb).iter().map(|x| x + 10_000).collect();
            let got = pool.install(|| to_vec(a.par_iter().interleave(&b)));
            assert_eq!(
                got,
                interleave_seq(&a, &b).iter().collect::<Vec<_>>(),
                "{la} {lb}"
            );
            let got = pool.install(|| to_vec(a.par_iter().interleave(&b).rev()));
            let mut want = interleave_seq(&a, &b);
            want.reverse();
            assert_eq!(got, want.iter().collect::<Vec<_>>(), "rev {la} {lb}");
            let got = pool.install(|| to_vec(a.par_iter().interleave_shortest(&b)));
            let want = interleave_shortest_seq(&a, &b);
            assert_eq!(got, want.iter().collect::<Vec<_>>(), "shortest {la} {lb}");
            let got = pool.install(|| to_vec(a.par_iter().interleave(&b).with_max_len(3)));
            assert_eq!(got, interleave_seq(&a, &b).iter().collect::<Vec<_>>());
        }
    }
}

#[test]
fn blocks_keep_every_item_in_order() {
    for pool in pools() {
        for &len in LENS {
            let a = data(len);
            let got = pool.install(|| to_vec(a.par_iter().by_exponential_blocks()));
            assert_eq!(got, a.iter().collect::<Vec<_>>());
            let got = pool.install(|| to_vec(a.par_iter().by_uniform_blocks(1000)));
            assert_eq!(got, a.iter().collect::<Vec<_>>());
        }
    }
}

#[test]
fn blocks_stop_a_search_early() {
    // The match is in the first block: later blocks never start.
    let visited = std::sync::atomic::AtomicUsize::new(0);
    let found = (0..1_000_000usize)
        .into_par_iter()
        .map(|x| {
            visited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            x
        })
        .by_uniform_blocks(1000)
        .map(|x| x)
        .drive_unindexed_first_match();
    assert_eq!(found, Some(3));
    assert!(visited.into_inner() <= 1000);
}

/// A short-circuiting search through the public plumbing, for unindexed iterators.
trait FirstMatch {
    fn drive_unindexed_first_match(self) -> Option<usize>;
}

impl<I: ParallelIterator<Item = usize>> FirstMatch for I {
    fn drive_unindexed_first_match(self) -> Option<usize> {
        use prorata::iter::plumbing::*;
        use std::sync::atomic::{AtomicBool, Ordering};
        struct Find<'a>(&'a AtomicBool);
        struct Found<'a>(&'a AtomicBool, Option<usize>);
        struct Either;
        impl Reducer<Option<usize>> for Either {
            fn reduce(self, l: Option<usize>, r: Option<usize>) -> Option<usize> {
                l.or(r)
            }
        }
        impl<'a> Consumer<usize> for Find<'a> {
            type Folder = Found<'a>;
            type Reducer = Either;
            type Result = Option<usize>;
            fn split_at(self, _: usize) -> (Self, Self, Either) {
                (Find(self.0), Find(self.0), Either)
            }
            fn into_folder(self) -> Found<'a> {
                Found(self.0, None)
            }
            fn full(&self) -> bool {
                self.0.load(Ordering::Relaxed)
            }
        }
        impl UnindexedConsumer<usize> for Find<'_> {
            fn split_off_left(&self) -> Self {
                Find(self.0)
            }
            fn to_reducer(&self) -> Either {
                Either
            }
        }
        impl Folder<usize> for Found<'_> {
            type Result = Option<usize>;
            fn consume(mut self, x: usize) -> Self {
                if x == 3 {
                    self.0.store(true, Ordering::Relaxed);
                    self.1 = Some(x);
                }
                self
            }
            fn complete(self) -> Option<usize> {
                self.1
            }
            fn full(&self) -> bool {
                self.0.load(Ordering::Relaxed)
            }
        }
        let flag = AtomicBool::new(false);
        self.drive_unindexed(Find(&flag))
    }
}

#[test]
fn with_min_len_and_max_len_bound_the_pieces() {
    for pool in pools() {
        let sizes = pool.install(|| pieces((0..100_000usize).into_par_iter().with_max_len(1000)));
        assert_eq!(sizes.iter().sum::<usize>(), 100_000);
        assert!(sizes.iter().all(|&n| n <= 1000), "{sizes:?}");
        let sizes = pool.install(|| pieces((0..100_000usize).into_par_iter().with_min_len(30_000)));
        assert_eq!(sizes.iter().sum::<usize>(), 100_000);
        assert!(sizes.iter().all(|&n| n >= 30_000), "{sizes:?}");
        let sizes = pool.install(|| pieces((0..100usize).into_par_iter().with_min_len(1000)));
        assert_eq!(sizes, [100]);
    }
}

#[test]
fn adaptors_report_lengths() {
    let it = (0..10usize).into_par_iter();
    assert_eq!(it.clone().zip(0..4usize).len(), 4);
    assert_eq!(it.clone().skip(12).len(), 0);
    assert_eq!(it.clone().take(12).len(), 10);
    assert_eq!(it.clone().step_by(3).len(), 4);
    assert_eq!(it.clone().chunks(3).len(), 4);
    assert_eq!(it.clone().interleave(0..3usize).len(), 13);
    assert_eq!(it.clone().interleave_shortest(0..3usize).len(), 7);
    assert_eq!(it.clone().interleave_shortest(0..30usize).len(), 20);
    assert_eq!(it.clone().rev().len(), 10);
    assert_eq!(it.positions(|x| x > 5).opt_len(), None);
}
