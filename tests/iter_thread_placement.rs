//! Where a parallel iterator's closures run, as in Rayon: called from outside any pool,
//! an iterator that splits runs every item on the global pool's workers; one too small
//! to split (or bounded by `with_min_len`) folds on the calling thread, in one piece.
//! Each case runs under both libraries, from the same source text, and must agree.

/// The cases, written once and compiled against each library.
macro_rules! placement_cases {
    ($module:ident, $lib:ident) => {
        mod $module {
            use std::sync::atomic::{AtomicUsize, Ordering};
            use $lib::prelude::*;

            /// How many of `len` items ran off any pool, for each pipeline shape.
            pub fn off_pool(len: usize) -> Vec<usize> {
                let off = AtomicUsize::new(0);
                let note = |_: &usize| {
                    if $lib::current_thread_index().is_none() {
                        off.fetch_add(1, Ordering::Relaxed);
                    }
                };
                let mut counts = Vec::new();
                let take = |counts: &mut Vec<usize>| counts.push(off.swap(0, Ordering::Relaxed));
                (0..len).into_par_iter().inspect(note).for_each(|_| ());
                take(&mut counts);
                let _: usize = (0..len).into_par_iter().inspect(note).sum();
                take(&mut counts);
                let _: Vec<usize> = (0..len).into_par_iter().inspect(note).collect();
                take(&mut counts);
                let v: Vec<usize> = (0..len).collect();
                let _ = v
                    .par_iter()
                    .inspect(|x| note(x))
                    .filter(|x| **x % 2 == 0)
                    .count();
                take(&mut counts);
                let _ = (0..len)
                    .into_par_iter()
                    .with_min_len(len)
                    .inspect(note)
                    .count();
                take(&mut counts);
                let _ = (0..len)
                    .into_par_iter()
                    .with_min_len(len / 2)
                    .inspect(note)
                    .count();
                take(&mut counts);
                let _ = v.par_chunks(3).map(|c| c.len()).inspect(note).count();
                take(&mut counts);
                counts
            }

            /// The lengths of the sequential pieces a `fold` sees.
            pub fn pieces(len: usize, min: usize) -> Vec<usize> {
                (0..len)
                    .into_par_iter()
                    .with_min_len(min)
                    .fold(|| 0usize, |n, _| n + 1)
                    .collect()
            }
        }
    };
}

placement_cases!(ours, prorata);
placement_cases!(theirs, rayon);

const LENS: [usize; 8] = [0, 1, 2, 3, 7, 100, 4097, 100_000];

#[test]
fn items_run_where_rayon_runs_them() {
    for len in LENS {
        assert_eq!(ours::off_pool(len), theirs::off_pool(len), "len {len}");
    }
}

#[test]
fn a_split_iterator_runs_every_item_on_a_worker() {
    for len in [2usize, 3, 100, 4097, 100_000] {
        assert!(
            ours::off_pool(len)[..4].iter().all(|&n| n == 0),
            "len {len}"
        );
    }
}

#[test]
fn with_min_len_bounds_every_piece_from_outside_the_pool() {
    for (len, min) in [(1usize << 20, 1_000_000usize), (10_000, 1000), (4097, 4097)] {
        for pieces in [ours::pieces(len, min), theirs::pieces(len, min)] {
            assert!(pieces.iter().all(|&n| n >= min), "{len}/{min}: {pieces:?}");
            assert_eq!(pieces.iter().sum::<usize>(), len);
        }
    }
}
