//! The stable sorts against std's stable sort, with stability checked by tags.

mod common;

use common::cases::on_pools;
use common::sort_inputs::{LENGTHS, shapes, tagged};
use prorata::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Checks every stable entry point on one input of (key, original index).
fn check_stable(values: &[u32], what: &str) {
    let input = tagged(values);
    // Sorting by the key only: ties must keep the index order.
    let mut expected = input.clone();
    expected.sort_by_key(|p| p.0);

    let mut v = input.clone();
    v.par_sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(v, expected, "par_sort_by on {what}");

    let mut v = input.clone();
    v.par_sort_by_key(|p| p.0);
    assert_eq!(v, expected, "par_sort_by_key on {what}");

    let mut v = input.clone();
    v.par_sort_by_cached_key(|p| p.0);
    assert_eq!(v, expected, "par_sort_by_cached_key on {what}");

    let mut v = values.to_vec();
    v.par_sort();
    let mut std_sorted = values.to_vec();
    std_sorted.sort();
    assert_eq!(v, std_sorted, "par_sort on {what}");

    // Elements that own memory (the sequential sort of long inputs picks
    // its algorithm by this): ties must keep their order too.
    let owning = (values.iter().copied()).zip((0..).map(|i: usize| i.to_string()));
    check_by_first(owning.collect(), &format!("owning elements on {what}"));

    // One word ordered by its key alone, sorted by its own order (the stable
    // sort picks its algorithm by size and by whether the comparator is the
    // type's own): ties must keep their order.
    let mut words: Vec<KeyFirst> = (values.iter().copied())
        .zip(0..)
        .map(|(key, tag)| KeyFirst { key, tag })
        .collect();
    let mut expected_words = words.clone();
    expected_words.sort();
    words.par_sort();
    let pairs = |w: &[KeyFirst]| w.iter().map(|w| (w.key, w.tag)).collect::<Vec<_>>();
    assert_eq!(
        pairs(&words),
        pairs(&expected_words),
        "par_sort of keyed words on {what}"
    );

    // Large elements (104 bytes), whose path differs from small ones'.
    let large = (values.iter().copied()).map(|key| (key, [u64::from(key); 12]));
    let large: Vec<(u32, [u64; 12])> = large.collect();
    check_by_first(
        large
            .into_iter()
            .zip(0usize..)
            .map(|((k, pad), tag)| (k, (tag, pad)))
            .collect(),
        &format!("large elements on {what}"),
    );

    // A descending comparator exercises the strictly-descending fast path with
    // ties (which must not be reversed).
    let mut v = input.clone();
    v.par_sort_by(|a, b| b.0.cmp(&a.0));
    let mut expected_desc = input;
    expected_desc.sort_by_key(|p| std::cmp::Reverse(p.0));
    assert_eq!(v, expected_desc, "descending par_sort_by on {what}");
}

/// Sorts pairs by their first field with `par_sort_by_key` and checks the
/// result against std's stable sort (ties keep their order).
fn check_by_first<K, V>(mut v: Vec<(K, V)>, what: &str)
where
    K: Ord + Copy + Send + Sync,
    V: Clone + Send + PartialEq + std::fmt::Debug,
    K: std::fmt::Debug,
{
    let mut expected = v.clone();
    expected.sort_by_key(|p| p.0);
    v.par_sort_by_key(|p| p.0);
    assert_eq!(v, expected, "par_sort_by_key of {what}");
}

/// A key and a tag in one word, ordered by the key alone.
#[derive(Clone, Copy, Debug)]
struct KeyFirst {
    key: u32,
    tag: u32,
}

impl PartialEq for KeyFirst {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for KeyFirst {}

impl PartialOrd for KeyFirst {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for KeyFirst {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// From the test's thread, outside any pool, as a program calls the sorts: a sort
/// that forks goes to the global pool and back.
#[test]
fn stable_sorts_match_std_on_every_shape_and_length_called_from_the_main_thread() {
    for (shape, make) in shapes() {
        for &len in LENGTHS {
            let values = make(len, len as u64);
            check_stable(&values, &format!("{shape} len {len} from the main thread"));
        }
    }
}

#[test]
fn stable_sorts_match_std_on_every_shape_length_and_pool() {
    on_pools(|threads| {
        for (name, make) in shapes() {
            for &len in LENGTHS {
                let values = make(len, len as u64);
                check_stable(&values, &format!("{name} len {len} on {threads} threads"));
            }
        }
    });
}

#[test]
fn stable_sort_of_a_million() {
    on_pools(|threads| {
        let values = shapes()[0].1(1_000_000, 99);
        let few: Vec<u32> = values.iter().map(|x| x % 1000).collect();
        let input = tagged(&few);
        let mut expected = input.clone();
        expected.sort_by_key(|p| p.0);
        let mut v = input;
        v.par_sort_by_key(|p| p.0);
        assert_eq!(v, expected, "1e6 on {threads} threads");
    });
}

/// Past 32 MiB the sorts' buffer is a mapping of their own (with huge pages
/// on Linux): the merge sort's and the few-distinct stable quicksort's. On
/// one thread the sequential sort takes a buffer of half the length instead
/// (under 32 MiB) and merges the sorted halves in place through it.
#[test]
fn stable_sort_with_a_buffer_past_32_mib() {
    on_pools(|threads| {
        // (u32, usize) pairs: 2.2 * 2^20 of them need a buffer of 35 MiB.
        let len = (2 << 20) + (1 << 18);
        let values = shapes()[0].1(len, 7);
        for distinct in [1 << 20, 16] {
            let input = tagged(&values.iter().map(|x| x % distinct).collect::<Vec<_>>());
            assert!(len * size_of_val(&input[0]) > 32 << 20);
            let mut expected = input.clone();
            expected.sort_by_key(|p| p.0);
            let mut v = input;
            v.par_sort_by_key(|p| p.0);
            assert!(v == expected, "{distinct} keys on {threads} threads");
        }
    });
}

/// 64-byte records by a key, long enough that the sequential sort takes the
/// merge sort rather than the quicksort (from 2^17 of them): on one thread as
/// two halves (their buffer would pass 32 MiB), on two as leaves of a
/// quarter, on eight as leaves shorter than that. Ties keep their order.
#[test]
fn stable_sort_of_long_inputs_of_64_byte_records() {
    on_pools(|threads| {
        let len = 600_000;
        let values = shapes()[0].1(len, 13);
        for distinct in [1 << 30, 1 << 12] {
            let records: Vec<(u32, [u64; 7])> = (values.iter().zip(0u64..))
                .map(|(&key, tag)| (key % distinct, [tag; 7]))
                .collect();
            assert_eq!(size_of_val(&records[0]), 64);
            let mut expected = records.clone();
            expected.sort_by_key(|r| r.0);
            let mut v = records;
            v.par_sort_by_key(|r| r.0);
            assert!(v == expected, "{distinct} keys on {threads} threads");
        }
    });
}

#[test]
fn stable_sort_of_strings_and_zero_sized() {
    on_pools(|_| {
        let values = shapes()[0].1(30_000, 5);
        let strings: Vec<String> = values.iter().map(|x| (x % 5000).to_string()).collect();
        let mut expected = strings.clone();
        expected.sort();
        let mut v = strings.clone();
        v.par_sort();
        assert_eq!(v, expected);
        let mut v = strings;
        v.par_sort_by_cached_key(|s| s.len());
        assert!(v.windows(2).all(|w| w[0].len() <= w[1].len()));

        let mut units = [(); 10_000];
        units.par_sort();
        units.par_sort_by_cached_key(|_| 1);
        assert_eq!(units.len(), 10_000);

        // Zero-sized, but with a destructor: each dropped once, after the sort.
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        struct Token;
        impl Drop for Token {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Relaxed);
            }
        }
        let mut tokens: Vec<Token> = (0..10_000).map(|_| Token).collect();
        // Answers that are no order at all would take a sort past its checks
        // for sorted and reversed inputs; as std's and Rayon's, the sorts of
        // zero-sized elements never ask.
        let calls = AtomicUsize::new(0);
        let no_order = |_: &Token, _: &Token| match calls.fetch_add(1, Relaxed) % 3 {
            0 => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        tokens.par_sort_by(no_order);
        tokens.par_sort_unstable_by(no_order);
        assert_eq!(calls.load(Relaxed), 0);
        assert_eq!(DROPS.load(Relaxed), 0);
        drop(tokens);
        assert_eq!(DROPS.load(Relaxed), 10_000);
        DROPS.store(0, Relaxed);
    });
}

/// The most comparisons a stable sort of `n` elements may make: `n ⌈log2 n⌉ + n`,
/// what a merge sort of `n` elements costs at worst, with room for the checks a
/// sort makes before it starts (sorted input, few distinct values).
fn comparison_bound(n: usize) -> u64 {
    let log = usize::BITS - (n - 1).leading_zeros();
    (n as u64) * (log as u64 + 1)
}

#[test]
fn stable_sort_comparisons_stay_within_n_log_n() {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    on_pools(|threads| {
        // One length sorted on the calling thread, one long enough to fork.
        for n in [50_000, 300_000] {
            for (name, make) in shapes() {
                let values = make(n, 17);
                let calls = AtomicU64::new(0);
                let mut v = values.clone();
                v.par_sort_by(|a, b| {
                    calls.fetch_add(1, Relaxed);
                    a.cmp(b)
                });
                let mut want = values;
                want.sort();
                assert_eq!(v, want, "{name} {n} on {threads} threads");
                let calls = calls.load(Relaxed);
                assert!(
                    calls <= comparison_bound(n),
                    "{name} {n} on {threads} threads: {calls} comparisons, bound {}",
                    comparison_bound(n)
                );
            }
        }
        let strings: Vec<String> = shapes()[0].1(50_000, 3)
            .iter()
            .map(|x| x.to_string())
            .collect();
        let calls = AtomicU64::new(0);
        let mut v = strings.clone();
        v.par_sort_by(|a, b| {
            calls.fetch_add(1, Relaxed);
            a.cmp(b)
        });
        let mut want = strings;
        want.sort();
        assert_eq!(v, want);
        assert!(calls.load(Relaxed) <= comparison_bound(50_000));
    });
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn par_sort_by_key_is_std_sort_by_key(values in proptest::collection::vec(0u32..50, 0..12_000)) {
            check_stable(&values, "proptest input");
        }
    }
}

/// A key whose `lt` and `cmp` count their calls apart.
#[derive(PartialEq, Eq)]
struct Asked(u32);

static LT_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static CMP_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl PartialOrd for Asked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
    fn lt(&self, other: &Self) -> bool {
        LT_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0 < other.0
    }
}

impl Ord for Asked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        CMP_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.cmp(&other.0)
    }
}

/// A sort of a vector of [`Asked`].
type SortOfAsked<'a> = &'a (dyn Fn(&mut Vec<Asked>) + Sync);

/// The sorts of `Ord` elements and by key ask `PartialOrd::lt`, never `cmp`,
/// as std's and Rayon's do.
#[test]
fn sorts_of_ord_types_and_by_key_ask_lt_as_std_and_rayon_do() {
    use rayon::slice::ParallelSliceMut as Rayon;
    use std::sync::atomic::Ordering::Relaxed;
    let values = shapes()[0].1(20_000, 5);
    let asked = |sort: SortOfAsked| {
        let mut v: Vec<Asked> = values.iter().map(|&x| Asked(x)).collect();
        LT_CALLS.store(0, Relaxed);
        CMP_CALLS.store(0, Relaxed);
        sort(&mut v);
        assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
        (LT_CALLS.load(Relaxed) > 0, CMP_CALLS.load(Relaxed))
    };
    let sorts: [(&str, SortOfAsked); 8] = [
        ("std sort", &|v| v.sort()),
        ("std sort_unstable", &|v| v.sort_unstable()),
        ("rayon par_sort", &|v| Rayon::par_sort(&mut v[..])),
        ("rayon par_sort_unstable_by_key", &|v| {
            Rayon::par_sort_unstable_by_key(&mut v[..], |x| Asked(x.0))
        }),
        ("par_sort", &|v| ParallelSliceMut::par_sort(&mut v[..])),
        ("par_sort_unstable", &|v| {
            ParallelSliceMut::par_sort_unstable(&mut v[..])
        }),
        ("par_sort_by_key", &|v| {
            ParallelSliceMut::par_sort_by_key(&mut v[..], |x| Asked(x.0))
        }),
        ("par_sort_unstable_by_key", &|v| {
            ParallelSliceMut::par_sort_unstable_by_key(&mut v[..], |x| Asked(x.0))
        }),
    ];
    on_pools(|threads| {
        for (name, sort) in sorts {
            assert_eq!(asked(sort), (true, 0), "{name} on {threads} threads");
        }
    });
}
