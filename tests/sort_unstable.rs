//! The unstable sorts against std's sort_unstable.

mod common;

use common::cases::on_pools;
use common::sort_inputs::{LENGTHS, shapes};
use prorata::prelude::*;

/// Checks every unstable entry point on one input.
fn check_unstable(values: &[u32], what: &str) {
    let mut expected = values.to_vec();
    expected.sort_unstable();

    let mut v = values.to_vec();
    v.par_sort_unstable();
    assert_eq!(v, expected, "par_sort_unstable on {what}");

    let mut v = values.to_vec();
    v.par_sort_unstable_by(|a, b| b.cmp(a));
    let mut expected_desc = expected.clone();
    expected_desc.reverse();
    assert_eq!(
        v, expected_desc,
        "descending par_sort_unstable_by on {what}"
    );

    // A key that folds values together: compare by key only.
    let mut v = values.to_vec();
    v.par_sort_unstable_by_key(|x| x / 3);
    assert!(
        v.windows(2).all(|w| w[0] / 3 <= w[1] / 3),
        "par_sort_unstable_by_key order on {what}"
    );
    v.sort_unstable();
    assert_eq!(
        v, expected,
        "par_sort_unstable_by_key permutation on {what}"
    );
}

/// From the test's thread, outside any pool, as a program calls the sorts: a sort
/// that forks goes to the global pool and back.
#[test]
fn unstable_sorts_match_std_on_every_shape_and_length_called_from_the_main_thread() {
    for (shape, make) in shapes() {
        for &len in LENGTHS {
            let values = make(len, len as u64 + 1);
            check_unstable(&values, &format!("{shape} len {len} from the main thread"));
        }
    }
}

#[test]
fn unstable_sorts_match_std_on_every_shape_length_and_pool() {
    on_pools(|threads| {
        for (name, make) in shapes() {
            for &len in LENGTHS {
                let values = make(len, len as u64 + 1);
                check_unstable(&values, &format!("{name} len {len} on {threads} threads"));
            }
        }
    });
}

#[test]
fn unstable_sort_of_a_million() {
    on_pools(|threads| {
        let values = shapes()[0].1(1_000_000, 7);
        let mut expected = values.clone();
        expected.sort_unstable();
        let mut v = values.clone();
        v.par_sort_unstable();
        assert_eq!(v, expected, "1e6 random on {threads} threads");
        // Many copies of a few values, with one value dominating.
        let skewed: Vec<u32> = values
            .iter()
            .map(|x| if x % 4 == 0 { x % 100 } else { 50 })
            .collect();
        let mut expected = skewed.clone();
        expected.sort_unstable();
        let mut v = skewed;
        v.par_sort_unstable();
        assert_eq!(v, expected, "1e6 skewed on {threads} threads");
    });
}

#[test]
fn unstable_sort_of_strings_and_zero_sized() {
    on_pools(|_| {
        let values = shapes()[0].1(30_000, 3);
        let strings: Vec<String> = values.iter().map(|x| (x % 7000).to_string()).collect();
        let mut expected = strings.clone();
        expected.sort_unstable();
        let mut v = strings;
        v.par_sort_unstable();
        assert_eq!(v, expected);

        let mut units = [(); 10_000];
        units.par_sort_unstable();
        units.par_sort_unstable_by_key(|_| 0u8);
        assert_eq!(units.len(), 10_000);
    });
}

/// Elements of 40, 64 and 128 bytes take the block partition. Keys repeat
/// (a tenth as many as elements), so ties are broken by the later fields
/// and the result is the one std's sort gives.
#[test]
fn unstable_sort_of_large_elements() {
    fn check<const N: usize>(values: &[u32], what: &str) {
        let input: Vec<[u64; N]> = values
            .iter()
            .zip(0u64..)
            .map(|(&x, i)| std::array::from_fn(|k| if k == 0 { x as u64 } else { i ^ k as u64 }))
            .collect();
        let mut expected = input.clone();
        expected.sort_unstable();
        let mut v = input.clone();
        v.par_sort_unstable();
        assert_eq!(v, expected, "{N} words, {what}");
        // By the first field only: the keys come out in order.
        let mut v = input;
        v.par_sort_unstable_by_key(|a| a[0]);
        assert!(
            v.windows(2).all(|w| w[0][0] <= w[1][0]),
            "{N} words by key, {what}"
        );
    }
    on_pools(|threads| {
        for (name, make) in shapes() {
            for len in [0, 20, 100, 127, 128, 129, 300, 5000, 40_000] {
                let values: Vec<u32> = make(len, len as u64)
                    .iter()
                    .map(|x| x % (len as u32 / 10 + 1))
                    .collect();
                let what = format!("{name}, len {len}, {threads} threads");
                check::<5>(&values, &what);
                check::<8>(&values, &what);
                check::<16>(&values, &what);
            }
        }
    });
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn par_sort_unstable_is_std_sort_unstable(values in proptest::collection::vec(any::<u32>(), 0..12_000)) {
            check_unstable(&values, "proptest input");
        }
    }
}

/// An input of two or four sorted runs of equal length (lists sorted apart and
/// appended) costs the sequential quicksort about as many comparisons as a random
/// input: its pivots must not come from the run borders, where every candidate is
/// the smallest or greatest of its run, which made the partitions lopsided and the
/// pieces heapsorted.
#[test]
fn sorted_runs_of_equal_length_cost_no_more_than_a_random_input() {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let calls = |values: &[u32]| {
        let calls = AtomicU64::new(0);
        let mut v = values.to_vec();
        v.par_sort_unstable_by(|a, b| {
            calls.fetch_add(1, Relaxed);
            a.cmp(b)
        });
        assert!(v.windows(2).all(|w| w[0] <= w[1]));
        calls.into_inner()
    };
    on_pools(|threads| {
        for n in [3000, 10_000, 100_000] {
            let random = shapes()[0].1(n, 5);
            for runs in [2, 4, 8] {
                let mut v = random.clone();
                for run in v.chunks_mut(n.div_ceil(runs)) {
                    run.sort_unstable();
                }
                let (ours, random) = (calls(&v), calls(&random));
                // 1.00-1.07 of a random input's calls; with pivots from the
                // quarters, four runs took 1.23-1.73 of them.
                assert!(
                    100 * ours <= 115 * random,
                    "{runs} runs of {n} on {threads} threads: {ours} calls, a random input {random}"
                );
            }
        }
    });
}
