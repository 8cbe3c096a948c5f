//! Every slice iterator against its sequential std counterpart, over empty, tiny and
//! large slices, on pools of 1, 2 and 8 workers.

mod common;

use common::cases::{LENS, on_pools};
use common::plumbing::to_vec;
use prorata::prelude::*;

const SIZES: [usize; 5] = [1, 2, 3, 64, 5000];

/// Inputs with runs and separators (multiples of 7, zeros) in varied places.
fn input(len: usize) -> Vec<u32> {
    (0..len as u32).map(|i| (i * 7919) % 13 / 3).collect()
}

#[test]
fn chunks_and_rchunks_match_std() {
    on_pools(|_| {
        for &len in LENS {
            let v = input(len);
            for size in SIZES {
                assert_eq!(
                    to_vec(v.par_chunks(size)),
                    v.chunks(size).collect::<Vec<_>>()
                );
                assert_eq!(
                    to_vec(v.par_rchunks(size)),
                    v.rchunks(size).collect::<Vec<_>>()
                );
                let exact = v.par_chunks_exact(size);
                assert_eq!(exact.remainder(), v.chunks_exact(size).remainder());
                assert_eq!(to_vec(exact), v.chunks_exact(size).collect::<Vec<_>>());
                let rexact = v.par_rchunks_exact(size);
                assert_eq!(rexact.remainder(), v.rchunks_exact(size).remainder());
                assert_eq!(to_vec(rexact), v.rchunks_exact(size).collect::<Vec<_>>());
                assert_eq!(v.par_chunks(size).len(), v.chunks(size).len());
                assert_eq!(v.par_rchunks_exact(size).len(), v.rchunks_exact(size).len());
            }
        }
    });
}

#[test]
fn chunks_are_indexed() {
    let v = input(1000);
    let got = to_vec(v.par_chunks(7).enumerate().map(|(i, c)| (i, c[0])));
    let want: Vec<_> = v.chunks(7).enumerate().map(|(i, c)| (i, c[0])).collect();
    assert_eq!(got, want);
    let got = to_vec(v.par_rchunks(7).enumerate().map(|(i, c)| (i, c.len())));
    let want: Vec<_> = v
        .rchunks(7)
        .enumerate()
        .map(|(i, c)| (i, c.len()))
        .collect();
    assert_eq!(got, want);
}

/// Tags every element with the index of its chunk, in parallel and sequentially.
fn tag_chunks<'a, I>(chunks: I) -> Vec<usize>
where
    I: IndexedParallelIterator<Item = &'a mut [usize]>,
{
    to_vec(chunks.enumerate().map(|(i, c)| {
        c.fill(i);
        c.len()
    }))
}

#[test]
fn mutable_chunks_match_std() {
    on_pools(|_| {
        for &len in LENS {
            for size in SIZES {
                let (mut par, mut seq) = (vec![usize::MAX; len], vec![usize::MAX; len]);
                let lens = tag_chunks(par.par_chunks_mut(size));
                for (i, c) in seq.chunks_mut(size).enumerate() {
                    c.fill(i);
                }
                assert_eq!(par, seq);
                assert_eq!(lens, seq.chunks(size).map(<[_]>::len).collect::<Vec<_>>());

                let (mut par, mut seq) = (vec![usize::MAX; len], vec![usize::MAX; len]);
                tag_chunks(par.par_rchunks_mut(size));
                for (i, c) in seq.rchunks_mut(size).enumerate() {
                    c.fill(i);
                }
                assert_eq!(par, seq);

                let (mut par, mut seq) = (vec![usize::MAX; len], vec![usize::MAX; len]);
                let mut exact = par.par_chunks_exact_mut(size);
                assert_eq!(exact.remainder().len(), len % size);
                exact.take_remainder().fill(7);
                assert!(exact.remainder().is_empty());
                tag_chunks(exact);
                let mut seq_exact = seq.chunks_exact_mut(size);
                for (i, c) in seq_exact.by_ref().enumerate() {
                    c.fill(i);
                }
                seq_exact.into_remainder().fill(7);
                assert_eq!(par, seq);

                let (mut par, mut seq) = (vec![usize::MAX; len], vec![usize::MAX; len]);
                let exact = par.par_rchunks_exact_mut(size);
                exact.into_remainder().fill(7);
                tag_chunks(par.par_rchunks_exact_mut(size));
                let mut seq_exact = seq.rchunks_exact_mut(size);
                for (i, c) in seq_exact.by_ref().enumerate() {
                    c.fill(i);
                }
                seq_exact.into_remainder().fill(7);
                assert_eq!(par, seq);
            }
        }
    });
}

#[test]
fn windows_match_std() {
    on_pools(|_| {
        for &len in LENS {
            let v = input(len);
            for size in SIZES {
                let want: Vec<_> = v.windows(size).collect();
                assert_eq!(v.par_windows(size).len(), want.len());
                assert_eq!(to_vec(v.par_windows(size)), want);
            }
            let pairs: Vec<&[u32; 2]> = v.windows(2).map(|w| w.try_into().unwrap()).collect();
            assert_eq!(to_vec(v.par_array_windows::<2>()), pairs);
            let fives: Vec<&[u32; 5]> = v.windows(5).map(|w| w.try_into().unwrap()).collect();
            assert_eq!(to_vec(v.par_array_windows::<5>()), fives);
        }
    });
}

/// Separator predicates: rare, frequent, everywhere, nowhere, at the ends.
fn separators() -> Vec<fn(&u32) -> bool> {
    vec![|x| *x == 0, |x| *x != 3, |_| true, |_| false, |x| *x == 4]
}

#[test]
fn splits_match_std() {
    on_pools(|_| {
        for &len in LENS {
            let v = input(len);
            for sep in separators() {
                assert_eq!(to_vec(v.par_split(sep)), v.split(sep).collect::<Vec<_>>());
                assert_eq!(
                    to_vec(v.par_split_inclusive(sep)),
                    v.split_inclusive(sep).collect::<Vec<_>>()
                );
                let (mut par, mut seq) = (v.clone(), v.clone());
                let lens = to_vec(par.par_split_mut(sep).map(|p| {
                    p.reverse();
                    p.len()
                }));
                let want: Vec<_> = seq.split_mut(sep).map(|p| p.reverse()).collect();
                assert_eq!((par.clone(), lens.len()), (seq.clone(), want.len()));
                par.par_split_inclusive_mut(sep).for_each(|p| p.sort());
                seq.split_inclusive_mut(sep).for_each(|p| p.sort());
                assert_eq!(par, seq);
            }
        }
    });
}

#[test]
fn splits_at_the_edges() {
    let v = [0u32, 0, 1, 0, 0];
    let is_zero = |x: &u32| *x == 0;
    assert_eq!(
        to_vec(v.par_split(is_zero)),
        v.split(is_zero).collect::<Vec<_>>()
    );
    let empty: [u32; 0] = [];
    assert_eq!(to_vec(empty.par_split(is_zero)), vec![&[] as &[u32]]);
    assert!(to_vec(empty.par_split_inclusive(is_zero)).is_empty());
}

#[test]
fn chunk_by_matches_std() {
    let relations: Vec<fn(&u32, &u32) -> bool> =
        vec![|a, b| a == b, |a, b| a <= b, |_, _| true, |_, _| false];
    on_pools(|_| {
        for &len in LENS {
            let v = input(len);
            for rel in &relations {
                let want: Vec<_> = v.chunk_by(rel).collect();
                assert_eq!(to_vec(v.par_chunk_by(rel)), want);
                let (mut par, mut seq) = (v.clone(), v.clone());
                par.par_chunk_by_mut(rel).for_each(|run| run.reverse());
                seq.chunk_by_mut(rel).for_each(|run| run.reverse());
                assert_eq!(par, seq);
            }
        }
    });
}

#[test]
fn chunk_by_asks_once_per_pair_of_neighbours_and_split_once_per_element() {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let relations: Vec<fn(&u32, &u32) -> bool> =
        vec![|a, b| a == b, |a, b| a <= b, |_, _| true, |_, _| false];
    on_pools(|_| {
        for &len in LENS {
            let v = input(len);
            let pairs = len.saturating_sub(1);
            for rel in &relations {
                let calls = AtomicUsize::new(0);
                let counted = |a: &u32, b: &u32| {
                    calls.fetch_add(1, Relaxed);
                    rel(a, b)
                };
                let runs = v.par_chunk_by(counted).count();
                assert_eq!(runs, v.chunk_by(rel).count());
                assert_eq!(calls.swap(0, Relaxed), pairs, "par_chunk_by, {len}");
                let mut w = v.clone();
                w.par_chunk_by_mut(counted).for_each(|run| run.reverse());
                assert_eq!(calls.swap(0, Relaxed), pairs, "par_chunk_by_mut, {len}");
            }
            let calls = AtomicUsize::new(0);
            let is_zero = |x: &u32| {
                calls.fetch_add(1, Relaxed);
                *x == 0
            };
            assert_eq!(v.par_split(is_zero).count(), v.split(|x| *x == 0).count());
            assert_eq!(calls.swap(0, Relaxed), len, "par_split, {len}");
        }
    });
}

#[test]
#[should_panic(expected = "chunk_size must not be zero")]
fn zero_chunk_size_panics() {
    let _ = [1, 2, 3].par_chunks(0);
}

#[test]
#[should_panic(expected = "chunk_size must not be zero")]
fn zero_rchunk_exact_mut_size_panics() {
    let _ = [1, 2, 3].par_rchunks_exact_mut(0);
}

#[test]
#[should_panic(expected = "assertion failed: self.window_size >= 1")]
fn zero_window_size_panics_once_used() {
    let windows = [1, 2, 3].par_windows(0);
    let _ = windows.count();
}

#[test]
fn zero_sized_elements() {
    let v = [(); 10_001];
    assert_eq!(to_vec(v.par_chunks(100)).len(), v.chunks(100).len());
    assert_eq!(to_vec(v.par_windows(3)).len(), v.windows(3).len());
    assert_eq!(
        to_vec(v.par_split(|_| true)).len(),
        v.split(|_| true).count()
    );
}

#[test]
fn panics_propagate() {
    on_pools(|_| {
        let mut v = input(10_000);
        let chunks = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            v.par_chunks_mut(10).enumerate().for_each(|(i, c)| {
                assert!(i != 500, "boom");
                c.fill(0);
            })
        }));
        assert!(chunks.is_err());
        let split = std::panic::catch_unwind(|| {
            let sep = |x: &usize| {
                assert!(*x != 7000, "boom");
                false
            };
            (0..10_000).collect::<Vec<usize>>().par_split(sep).count()
        });
        assert!(split.is_err());
    });
}
