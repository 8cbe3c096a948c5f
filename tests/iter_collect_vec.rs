//! Collecting into vectors and other sequences: same items, same order as std, on
//! every length and pool, through both the in-place and the in-pieces paths.

mod common;

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

use common::cases::for_all;
use common::plumbing::Unindexed;
use prorata::prelude::*;

fn f(x: usize) -> u64 {
    (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7
}

fn expected(len: usize) -> Vec<u64> {
    (0..len).map(f).collect()
}

#[test]
fn collect_indexed_matches_std() {
    for_all(|len| {
        let got: Vec<u64> = (0..len).into_par_iter().map(f).collect();
        assert_eq!(got, expected(len), "len {len}");
    });
}

#[test]
fn collect_unindexed_matches_std() {
    for_all(|len| {
        let got: Vec<u64> = Unindexed((0..len).into_par_iter().map(f)).collect();
        assert_eq!(got, expected(len), "len {len}");
    });
}

#[test]
fn collect_from_slices_of_owned_values() {
    for_all(|len| {
        let source: Vec<String> = (0..len).map(|i| i.to_string()).collect();
        let got: Vec<String> = source.par_iter().map(|s| s.clone() + "!").collect();
        let want: Vec<String> = source.iter().map(|s| s.clone() + "!").collect();
        assert_eq!(got, want);
    });
}

#[test]
fn collect_zero_sized_items() {
    for_all(|len| {
        let got: Vec<()> = (0..len).into_par_iter().map(|_| ()).collect();
        assert_eq!(got.len(), len);
        let got: Vec<()> = Unindexed((0..len).into_par_iter().map(|_| ())).collect();
        assert_eq!(got.len(), len);
    });
}

#[test]
fn par_extend_appends_after_existing_items() {
    for_all(|len| {
        let mut want = vec![7, 8, 9];
        want.extend(expected(len));

        let mut indexed = vec![7, 8, 9];
        indexed.par_extend((0..len).into_par_iter().map(f));
        assert_eq!(indexed, want);

        let mut unindexed = vec![7, 8, 9];
        unindexed.par_extend(Unindexed((0..len).into_par_iter().map(f)));
        assert_eq!(unindexed, want);

        let source = expected(len);
        let mut copied = vec![7, 8, 9];
        copied.par_extend(&source);
        assert_eq!(copied, want);
    });
}

#[test]
fn collect_into_vec_replaces_contents_and_reuses_the_buffer() {
    for_all(|len| {
        let mut target: Vec<u64> = Vec::with_capacity(len + 10);
        target.extend([1, 2, 3]);
        let buffer = target.as_ptr();
        (0..len)
            .into_par_iter()
            .map(f)
            .collect_into_vec(&mut target);
        assert_eq!(target, expected(len));
        assert_eq!(target.as_ptr(), buffer, "the buffer was big enough");
    });
}

#[test]
fn collect_vec_list_holds_every_item_in_order() {
    for_all(|len| {
        for list in [
            (0..len).into_par_iter().map(f).collect_vec_list(),
            Unindexed((0..len).into_par_iter().map(f)).collect_vec_list(),
        ] {
            assert!(list.iter().all(|piece| !piece.is_empty()));
            let flat: Vec<u64> = list.into_iter().flatten().collect();
            assert_eq!(flat, expected(len));
        }
    });
}

#[test]
fn boxed_and_shared_slices() {
    for_all(|len| {
        let boxed: Box<[u64]> = (0..len).into_par_iter().map(f).collect();
        let rc: Rc<[u64]> = (0..len).into_par_iter().map(f).collect();
        let arc: Arc<[u64]> = Unindexed((0..len).into_par_iter().map(f)).collect();
        assert_eq!(&*boxed, &expected(len)[..]);
        assert_eq!(&*rc, &expected(len)[..]);
        assert_eq!(&*arc, &expected(len)[..]);
    });
}

#[test]
fn cow_of_slices_is_owned() {
    for_all(|len| {
        let cow: Cow<'_, [u64]> = (0..len).into_par_iter().map(f).collect();
        assert!(matches!(cow, Cow::Owned(_)));
        assert_eq!(&*cow, &expected(len)[..]);
    });
}

#[test]
fn unit_runs_every_item() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    for_all(|len| {
        let seen = AtomicUsize::new(0);
        let () = (0..len)
            .into_par_iter()
            .map(|_| {
                seen.fetch_add(1, Ordering::Relaxed);
            })
            .collect();
        let mut unit = ();
        unit.par_extend((0..len).into_par_iter().map(|_| {
            seen.fetch_add(1, Ordering::Relaxed);
        }));
        assert_eq!(seen.into_inner(), 2 * len);
    });
}

#[test]
fn nested_collections() {
    let got: Vec<Vec<usize>> = (0..50usize)
        .into_par_iter()
        .map(|i| (0..i).into_par_iter().collect())
        .collect();
    let want: Vec<Vec<usize>> = (0..50).map(|i| (0..i).collect()).collect();
    assert_eq!(got, want);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn collect_equals_std(v in proptest::collection::vec(any::<i32>(), 0..3000), threads in 1usize..5) {
            let pool = prorata::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let got: Vec<i64> = pool.install(|| v.par_iter().map(|&x| i64::from(x) * 3).collect());
            let want: Vec<i64> = v.iter().map(|&x| i64::from(x) * 3).collect();
            prop_assert_eq!(got, want);
        }
    }
}

#[test]
fn collect_after_unindexed_adaptors_matches_std() {
    for_all(|len| {
        let got: Vec<u64> = (0..len)
            .into_par_iter()
            .map(f)
            .filter(|x| x % 3 != 0)
            .collect();
        let want: Vec<u64> = (0..len).map(f).filter(|x| x % 3 != 0).collect();
        assert_eq!(got, want);
        let got: Vec<usize> = (0..len / 100)
            .into_par_iter()
            .flat_map_iter(|i| 0..i % 7)
            .collect();
        let want: Vec<usize> = (0..len / 100).flat_map(|i| 0..i % 7).collect();
        assert_eq!(got, want);
    });
}
